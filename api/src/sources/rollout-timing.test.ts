import { describe, expect, it } from '@jest/globals';
import { datePhrases, ringsOf, rolloutTiming, timingSpan } from './rollout-timing.js';

const range = (line: string, postDate = '2026-05-15') => datePhrases(line, postDate).map((p) => [p.text, p.start, p.end]);

describe('date phrases', () => {
  it.each([
    ['early September 2026', '2026-09-01', '2026-09-10'],
    ['mid-September 2026', '2026-09-11', '2026-09-20'],
    ['Mid-June 2026', '2026-06-11', '2026-06-20'],
    ['late February 2028', '2028-02-21', '2028-02-29'],
    ['late-May 2026', '2026-05-21', '2026-05-31'],
    ['end of August 2026', '2026-08-21', '2026-08-31'],
    ['end-of-July 2026', '2026-07-21', '2026-07-31'],
    ['the end of September 2026', '2026-09-21', '2026-09-30'],
    ['beginning of March 2026', '2026-03-01', '2026-03-10'],
    ['September 2026', '2026-09-01', '2026-09-30'],
    ['Sept 2026', '2026-09-01', '2026-09-30'],
    ['September CY2026', '2026-09-01', '2026-09-30'],
    ['June 17, 2026', '2026-06-17', '2026-06-17'],
    ['August 11th, 2026', '2026-08-11', '2026-08-11'],
    ['17 June 2026', '2026-06-17', '2026-06-17'],
    ['Q3 2026', '2026-07-01', '2026-09-30'],
    ['Q1 CY2027', '2027-01-01', '2027-03-31'],
    ['CY2026 Q4', '2026-10-01', '2026-12-31'],
    ['H2 2026', '2026-07-01', '2026-12-31'],
    ['H1 CY2027', '2027-01-01', '2027-06-30'],
    ['second half of 2026', '2026-07-01', '2026-12-31'],
    ['first half of calendar year 2027', '2027-01-01', '2027-06-30'],
    ['CY2026', '2026-01-01', '2026-12-31'],
  ])('%s → %s … %s', (text, start, end) => {
    expect(range(`Rollout begins in ${text}.`)).toEqual([[text, start, end]]);
  });

  it('a month without a year takes the year written next to it, else the first such month from shortly before the post', () => {
    expect(range('from early July to late August 2026', '2025-03-01')).toEqual([
      ['early July', '2026-07-01', '2026-07-10'],
      ['late August 2026', '2026-08-21', '2026-08-31'],
    ]);
    expect(range('Rollout begins in late July', '2027-03-02')).toEqual([['late July', '2027-07-21', '2027-07-31']]);
    expect(range('Rollout begins in late January', '2025-12-10')).toEqual([['late January', '2026-01-21', '2026-01-31']]);
    expect(range('Rollout began in late October', '2025-12-10')).toEqual([['late October', '2025-10-21', '2025-10-31']]);
  });

  it('"may" the verb and lower-case month words are not dates; "since June 2024" is the past', () => {
    expect(range('Admins may need to act; this march of changes continues')).toEqual([]);
    expect(range('NTLM has been deprecated since June 2024.')).toEqual([]);
  });
});

describe('rings', () => {
  it.each([
    ['Targeted Release', ['Targeted']],
    ['Targeted Release (Worldwide)', ['Targeted']],
    ['Microsoft Frontier (Public Preview)', ['Targeted']],
    ['Standard Release', ['Standard']],
    ['Deferred Release', ['Deferred']],
    ['General Availability (Worldwide)', ['general']],
    ['General Availability (Worldwide, GCC, GCC High, DoD)', ['GCC High', 'GCC', 'DoD', 'general']],
    ['General Availability (GCC, GCC High)', ['GCC High', 'GCC']],
    ['General Availability (Worldwide, GCC, and GCCH)', ['GCC High', 'GCC', 'general']],
    ['GCC-H', ['GCC High']],
    ['DoD', ['DoD']],
    ['Worldwide, GCC', ['GCC', 'general']],
    ['Something else', []],
  ])('%s → %p', (text, rings) => {
    expect(ringsOf(text).sort()).toEqual([...rings].sort());
  });
});

describe('windows of a schedule section', () => {
  it('a line per ring, "begin … complete by …" as one window, "(previously …)" ignored', () => {
    const html = `<ul><li><b>Targeted Release:</b> We will begin rolling out in <b>late July 2026</b> (previously&nbsp;early July)&nbsp;and expect to
      complete by <b>mid-August 2026</b> (previously&nbsp;late July).</li><li>General Availability (GCC, GCC High): We will begin rolling out in<b>
      late September 2026</b> and expect to complete by <b>late November 2026</b>.</li></ul>`;
    expect(rolloutTiming(html, '2026-08-01')).toEqual([
      { ring: 'Targeted', label: 'late July 2026 to mid-August 2026', start: '2026-07-21', end: '2026-08-20' },
      { ring: 'GCC', label: 'late September 2026 to late November 2026', start: '2026-09-21', end: '2026-11-30' },
      { ring: 'GCC High', label: 'late September 2026 to late November 2026', start: '2026-09-21', end: '2026-11-30' },
    ]);
  });

  it('"from … to …", "… through …" and "… – …" ranges', () => {
    expect(rolloutTiming('<p>General Availability (Worldwide): from early June 2026 to late July 2026</p>', '2026-05-01')).toMatchObject([
      { ring: 'general', start: '2026-06-01', end: '2026-07-31', label: 'early June 2026 to late July 2026' },
    ]);
    expect(rolloutTiming('<p>GCC: Late June 2026 through late June 2026</p>', '2026-05-01')).toMatchObject([
      { ring: 'GCC', start: '2026-06-21', end: '2026-06-30' },
    ]);
    expect(rolloutTiming('<p>General Availability (Worldwide): Mid-June 2026 (previously late-May) – Late July 2026</p>', '2026-05-01')).toMatchObject([
      { ring: 'general', start: '2026-06-11', end: '2026-07-31' },
    ]);
  });

  it('a ring named above a nested list gives its ring to the dated lines below it', () => {
    const html = '<ul><li>Targeted Release:<ul><li>Phase 1 begins in early June 2026</li></ul></li><li>No dates here</li></ul>';
    expect(rolloutTiming(html, '2026-05-01')).toEqual([{ ring: 'Targeted', label: 'early June 2026', start: '2026-06-01', end: '2026-06-10' }]);
  });

  it('"Available now" is a window on the post date; "at a later date" is none', () => {
    expect(rolloutTiming('<ul><li><b>General Availability (Worldwide):</b>&nbsp;Available now</li></ul>', '2026-08-14')).toEqual([
      { ring: 'general', label: 'Available now', start: '2026-08-14', end: '2026-08-14' },
    ]);
    expect(rolloutTiming('<p>Broader rollout timing will be communicated at a later date.</p>', '2026-08-14')).toEqual([]);
  });

  it('a quarter and a half-year; two rings in one paragraph are two statements', () => {
    expect(rolloutTiming('<p>Standard Release: Q3 CY2026. Deferred Release: H1 2027.</p>', '2026-05-01')).toEqual([
      { ring: 'Standard', label: 'Q3 CY2026', start: '2026-07-01', end: '2026-09-30' },
      { ring: 'Deferred', label: 'H1 2027', start: '2027-01-01', end: '2027-06-30' },
    ]);
    expect(
      rolloutTiming(
        '<p>General Availability Worldwide and GCC: We will begin rolling out in early September 2026 (previously early August). GCC-H: We will begin rolling out in mid-September 2026 and expect to complete by mid-October 2026.</p>',
        '2026-05-01',
      ).map((w) => `${w.ring} ${w.start} ${w.end}`),
    ).toEqual(['GCC 2026-09-01 2026-09-10', 'general 2026-09-01 2026-09-10', 'GCC High 2026-09-11 2026-10-20']);
  });

  it('the span: earliest start, latest end', () => {
    expect(
      timingSpan([
        { ring: 'general', label: 'x', start: '2026-09-11', end: '2026-09-30' },
        { ring: 'Targeted', label: 'y', start: '2026-08-01', end: '2026-08-20' },
      ]),
    ).toEqual({ start: '2026-08-01', end: '2026-09-30' });
    expect(timingSpan([])).toBeNull();
  });
});
