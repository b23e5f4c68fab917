import { describe, expect, it } from '@jest/globals';
import { messageSections, sectionKindOf } from './message-sections.js';

describe('message sections', () => {
  it('cuts a 2026 post at its bracketed headings; the text before the first is an untitled section', () => {
    const body =
      '<p>Updated August 5, 2026: We have updated the timeline.</p><p><b>[What and Why:]</b></p><p>Teams gets a new share panel.</p>' +
      '<p><b>[Rollout Schedule:]</b></p><ul><li>Targeted Release: late July 2026</li></ul>' +
      '<b>[Impact on Your Organization]</b><p></p><p><i>Who is affected</i></p><p>All users.</p>' +
      '<p>[Action Required/Recommendations:]</p><p>Nothing to do.</p><p><b>[Compliance considerations:]</b></p><p>None.</p>';
    expect(messageSections(body)).toEqual([
      { title: '', kind: null, html: '<p>Updated August 5, 2026: We have updated the timeline.</p>' },
      { title: 'What and Why', kind: 'whatAndWhy', html: '<p>Teams gets a new share panel.</p>' },
      { title: 'Rollout Schedule', kind: 'rollout', html: '<ul><li>Targeted Release: late July 2026</li></ul>' },
      { title: 'Impact on Your Organization', kind: 'impact', html: '<p></p><p><i>Who is affected</i></p><p>All users.</p>' },
      { title: 'Action Required/Recommendations', kind: 'action', html: '<p>Nothing to do.</p>' },
      { title: 'Compliance considerations', kind: 'compliance', html: '<p>None.</p>' },
    ]);
  });

  it('reads the older generation, in brackets or in bold without them, any case, with or without the colon', () => {
    const bracketed = '<p>[When this will happen:]</p><p>Early March 2026.</p><p>[how this will affect your organization]</p><p>Users see it.</p>';
    expect(messageSections(bracketed).map((s) => [s.title, s.kind])).toEqual([
      ['When this will happen', 'rollout'],
      ['how this will affect your organization', 'impact'],
    ]);
    const bold = '<p>Intro.</p><p><b>When this will happen:</b></p><p>Mid-April 2026.</p><p><strong>What you can do to prepare</strong></p><p>Tell users.</p>';
    expect(messageSections(bold).map((s) => [s.title, s.kind])).toEqual([
      ['', null],
      ['When this will happen', 'rollout'],
      ['What you can do to prepare', 'action'],
    ]);
  });

  it('a heading broken by a tag, in a div, or after a line break still counts', () => {
    expect(messageSections('<p>[Rollout Schedule<b>:]</b></p><p>Late September 2026.</p>')).toEqual([
      { title: 'Rollout Schedule', kind: 'rollout', html: '<p>Late September 2026.</p>' },
    ]);
    expect(messageSections('<div>Text.</div><div><br>[Rollout Schedule]</div><ul><li>Worldwide: June 2026</li></ul>').map((s) => s.title)).toEqual([
      '',
      'Rollout Schedule',
    ]);
  });

  it('a bracket inside a sentence, or an unknown bracketed phrase, is text, not a heading', () => {
    const body = '<p>It brings the “<b>All [apps]”</b> section up. Learn more: [To be updated closer to launch.]</p><p>[Rollout Schedule] is below.</p>';
    expect(messageSections(body)).toEqual([]);
  });

  it('a post without recognisable headings has no sections', () => {
    expect(messageSections('<p>Plain post.</p><ul><li>One</li></ul>')).toEqual([]);
  });

  it('knows the headings of both generations whatever their spelling', () => {
    for (const [heading, kind] of [
      ['Action Required / Recommendations:', 'action'],
      ['Action required and recommendations', 'action'],
      ['How this affects your organization:', 'impact'],
      ['Impact to your organization:', 'impact'],
      ['What’s changing', 'whatAndWhy'],
      ['COMPLIANCE CONSIDERATIONS', 'compliance'],
      ['When will this happen:', 'rollout'],
      ['Who is affected', null],
    ] as const)
      expect(sectionKindOf(heading)).toBe(kind);
  });
});
