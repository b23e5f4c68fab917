-- A deleted triage comment keeps no text for readers: what it said, and said before, moves to its comment_deleted
-- activity line (read by admins only), and the comment keeps no body, history or mentions.
UPDATE moderator_activities a
SET details = coalesce(a.details, '{}'::jsonb) || jsonb_build_object('body', c.body, 'history', c.history)
FROM triage_comments c
WHERE c.deleted_at IS NOT NULL AND a.action_type = 'comment_deleted' AND (a.details->>'commentId') = c.id::text
  AND NOT (coalesce(a.details, '{}'::jsonb) ? 'body');
--> statement-breakpoint
UPDATE triage_comments SET body = '', history = '[]'::jsonb, mentions = '{}'::integer[]
WHERE deleted_at IS NOT NULL AND (body <> '' OR history <> '[]'::jsonb OR mentions <> '{}'::integer[]);
