import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { roadmapVocabulary, type RoadmapVocabulary } from '../../sources/roadmap-vocabulary.js';

/**
 * The RSS mapping's tag vocabulary: the known lists plus every value the JSON feed has given us, so a release
 * phase or platform Microsoft adds later is classified right once the JSON feed has carried it.
 */
export async function storedVocabulary(db: DbOrTx): Promise<RoadmapVocabulary> {
  const { rows } = await db.execute<{ kind: string; value: string }>(sql`
    SELECT DISTINCT 'phase' AS kind, unnest(release_phases) AS value FROM items WHERE source = 'roadmap' AND NOT is_demo
    UNION SELECT DISTINCT 'cloud', unnest(cloud_instances) FROM items WHERE source = 'roadmap' AND NOT is_demo
    UNION SELECT DISTINCT 'platform', unnest(platforms) FROM items WHERE source = 'roadmap' AND NOT is_demo
    UNION SELECT DISTINCT 'status', status FROM items WHERE source = 'roadmap' AND NOT is_demo AND status IS NOT NULL`);
  const of = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => r.value);
  return roadmapVocabulary({ releasePhases: of('phase'), cloudInstances: of('cloud'), platforms: of('platform'), statuses: of('status') });
}
