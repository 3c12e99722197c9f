// S1-S3 contribution settings routes. Settings errors: {error: message}; validation is 422.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { callerOf, tenantId } from '../../platform/request-context.js';
import { errorResponses, MessageError } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import { type createSettingsService, SETTING_FIELDS, SETTINGS_NOT_FOUND } from './settings.service.js';

const SETTINGS_TENANCY: TenancyMessages = {
  source: 'path',
  pathParam: 'company_id',
  forbidden: "You do not have permission to access this company's contribution settings.",
  notFound: SETTINGS_NOT_FOUND,
};

const SettingsSchema = Type.Object(
  {
    id: Type.Integer(),
    company_id: Type.Integer(),
    ...Object.fromEntries(SETTING_FIELDS.map((field) => [field, Type.String()])),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'ContributionSetting' },
);

// A malformed id in the path is reported as the spec's 400 (route config badRequestMessage).
const CompanyParams = Type.Object({ company_id: Type.String({ pattern: '^[0-9]+$' }) });

const errors = errorResponses(MessageError);

export async function settingsRoutes(root: FastifyInstance, service: ReturnType<typeof createSettingsService>): Promise<void> {
  const app = typed(root);
  app.addSchema(SettingsSchema);

  app.get(
    '/api/contribution-settings',
    {
      config: { name: 'contribution-settings.index', family: 'settings', internalMessage: 'Failed to retrieve contribution settings.' },
      schema: {
        tags: ['payroll settings'],
        summary: 'S1. Contribution settings of the authenticated company and every company below it',
        response: { 200: Type.Object({ message: Type.String(), data: Type.Array(Type.Ref('ContributionSetting')) }), ...errors },
      },
    },
    async (request) => ({
      message: 'Contribution settings retrieved successfully',
      data: await service.listTree(callerOf(request).companyId),
    }),
  );

  app.get(
    '/api/contribution-settings/:company_id',
    {
      config: {
        name: 'contribution-settings.show',
        family: 'settings',
        tenancy: SETTINGS_TENANCY,
        badRequestMessage: 'Company ID is required.',
      },
      schema: {
        tags: ['payroll settings'],
        summary: "S2. One company's contribution settings",
        params: CompanyParams,
        response: { 200: Type.Object({ message: Type.String(), data: Type.Ref('ContributionSetting') }), ...errors },
      },
    },
    async (request) => ({
      message: 'Contribution settings retrieved successfully',
      data: await service.get(tenantId(request)),
    }),
  );

  app.patch(
    '/api/contribution-settings/:company_id',
    {
      config: {
        name: 'contribution-settings.update',
        family: 'settings',
        tenancy: SETTINGS_TENANCY,
        badRequestMessage: 'Company ID is required.',
      },
      schema: {
        tags: ['payroll settings'],
        summary: 'S3. Update contribution settings (string values; unknown field or bad value → 422)',
        params: CompanyParams,
        response: { 200: Type.Object({ message: Type.String(), data: Type.Ref('ContributionSetting') }), ...errors },
      },
    },
    async (request) => ({
      message: 'Contribution settings updated successfully',
      data: await service.update(tenantId(request), request.body),
    }),
  );
}
