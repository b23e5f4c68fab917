import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { getItem, insertMessage, signIn } from '../../../test/factories.js';
import { grantTenant, insertTenant, receivedBy } from '../../../test/tenant-fixtures.js';

/**
 * Curation follows the tenant rule: a moderator who was not given a private tenant neither reads nor changes its
 * posts; every answer is the unknown id's 404, and nothing is written.
 */
let t: TestContext;
let privateRowId: number;
let fabrikam: { id: number };
const PRIVATE_TITLE = 'Fabrikam-only post about the merger';
const save = { isFeatured: true, thirdPartyLinks: [], moderatorNotes: 'n' };

beforeAll(async () => {
  t = await createTestContext();
  fabrikam = await insertTenant(t.database.db, { name: 'Fabrikam', visibility: 'private' });
  const row = await insertMessage(t.database.db, { externalId: 'MC710001', title: PRIVATE_TITLE });
  await receivedBy(t.database.db, row.id, [fabrikam.id]);
  privateRowId = row.id;
});
afterAll(async () => {
  await t.close();
});

describe('curating a post of a private tenant', () => {
  it('is the unknown id’s 404 for a moderator without the grant, and changes nothing', async () => {
    const { agent } = await signIn(t.app, t.database.db, { roles: ['User', 'Moderator'] });
    const unknown = await agent.put('/api/moderator/message/MC719999').send(save);
    const hidden = await agent.put('/api/moderator/message/MC710001').send(save);
    expect([unknown.status, hidden.status]).toEqual([404, 404]);
    expect(hidden.body.error.name).toBe(unknown.body.error.name);
    expect(hidden.body.error.message).toBe(unknown.body.error.message.replace('MC719999', 'MC710001'));
    expect(hidden.text).not.toContain(PRIVATE_TITLE);
    expect((await getItem(t.database.db, privateRowId))?.isFeatured).toBe(false);

    const record = { actionType: 'featured', itemType: 'message_center', itemId: 'MC710001', itemTitle: '', details: { isFeatured: true } };
    const unknownRecord = await agent.post('/api/moderator-activity').send({ ...record, itemId: 'MC719999' });
    const hiddenRecord = await agent.post('/api/moderator-activity').send(record);
    expect([unknownRecord.status, hiddenRecord.status]).toEqual([404, 404]);
    expect(hiddenRecord.body.error.name).toBe(unknownRecord.body.error.name);
    const { rows } = await t.database.pool.query(`SELECT count(*)::int AS n FROM moderator_activities`);
    expect(rows[0].n).toBe(0);
  });

  it('works for a moderator given the tenant, and for an admin', async () => {
    const { user, agent } = await signIn(t.app, t.database.db, { roles: ['User', 'Moderator'] });
    await grantTenant(t.database.db, user.id, fabrikam.id);
    const granted = await agent.put('/api/moderator/message/MC710001').send(save);
    expect(granted.status).toBe(200);
    expect(granted.body.item.title).toBe(PRIVATE_TITLE);
    const { agent: admin } = await signIn(t.app, t.database.db, { roles: ['User', 'Admin'] });
    expect((await admin.put('/api/moderator/message/MC710001').send({ ...save, isFeatured: false })).status).toBe(200);
  });
});
