import { describe, expect, it } from '@jest/globals';
import { createTenantRequest, triageSettingsUpdate } from '@radar/contracts';
import { formErrorsOf } from './field-errors.js';

describe('formErrorsOf', () => {
  it("names each field's first problem in the API's words", () => {
    const problems = formErrorsOf(createTenantRequest.safeParse({ name: ' ', tenantId: 'not a tenant', clientId: 'x', clientSecret: '' }));
    expect(problems).toEqual({
      name: 'name is required',
      tenantId: 'tenantId must be a directory (tenant) id (a GUID) or a verified domain',
      clientId: 'clientId must be an application (client) id (a GUID)',
      clientSecret: 'clientSecret is required',
    });
  });

  it('is empty for a form that can be sent', () => {
    expect(formErrorsOf(triageSettingsUpdate.safeParse({ startWindowDays: 30, openUpcomingRoadmap: true }))).toEqual({});
  });
});
