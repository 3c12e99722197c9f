// /api/pay-item-types (docs/payroll.md, "Pay item types"): the built-in types and the company's own,
// and a new type of the company's own. Errors {error}; validation 422 {error: {field: [..]}}.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { recoverAnswer } from '../../platform/idempotency-claims.js';
import { tenantId } from '../../platform/request-context.js';
import { CompanyIdInput, FieldsError } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import { PAY_ITEM_TYPES_FORBIDDEN, type PayItemTypesService } from './pay-item-types.service.js';
import { CODE_PATTERN, MAX_NAME } from './pay-item-types.validation.js';

const TENANCY: TenancyMessages = { forbidden: PAY_ITEM_TYPES_FORBIDDEN };
const tags = ['pay items'];
const errors = { '4xx': FieldsError, '5xx': FieldsError };

const flag = (description: string) => Type.Boolean({ description });
const Flags = {
  taxable: flag("in PAYE's taxable pay"),
  pensionable: flag('in the pension base (Pension Reform Act 2014 s.4(1): monthly emoluments)'),
  nhf_base: flag('in the NHF base (basic salary)'),
  nsitf_base: flag("in the NSITF base (the employer's 1 % of the payroll)"),
  regular: flag('paid every period: annualised with salary; irregular items are taxed once at the margin'),
  cash: flag('paid in cash; false: taxed, not paid (a benefit in kind)'),
};
const Treatment = Type.Union([Type.Literal('earning'), Type.Literal('deduction')], {
  description: 'earning: paid (or, not cash, only taxed); deduction: taken from net pay after tax',
});

const PayItemTypeSchema = Type.Object(
  {
    id: Type.Union([Type.Null(), Type.Integer()], { description: "the company's own type's id; null for a built-in" }),
    code: Type.String({ description: 'what an item names as its `type`' }),
    name: Type.String(),
    treatment: Treatment,
    ...Flags,
    built_in: Type.Boolean({ description: 'one of the built-in types (law, the same for every company)' }),
    created_at: Type.Union([Type.Null(), Type.String()], { description: 'null for a built-in' }),
  },
  { $id: 'PayItemType' },
);

export function payItemTypesRoutes(service: PayItemTypesService) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);
    app.addSchema(PayItemTypeSchema);

    app.get(
      '/api/pay-item-types',
      {
        config: { name: 'pay-item-types.read', family: 'plain', tenancy: TENANCY },
        schema: {
          tags,
          summary: "List pay item types: the built-in ones, then the company's own by code",
          querystring: Type.Object({ company_id: CompanyIdInput }),
          response: { 200: Type.Object({ message: Type.String(), data: Type.Array(Type.Ref('PayItemType')) }), ...errors },
        },
      },
      async (request) => service.list(tenantId(request)),
    );

    app.post(
      '/api/pay-item-types',
      {
        config: {
          name: 'pay-item-types.create',
          family: 'plain',
          tenancy: TENANCY,
          idempotency: {
            recover: recoverAnswer(201, (request, id) => service.recoverCreated(tenantId(request), Number(id))),
          },
        },
        schema: {
          tags,
          summary: 'Add a pay item type of the company’s own',
          body: Type.Object({
            company_id: CompanyIdInput,
            code: Type.String({
              pattern: CODE_PATTERN.source,
              description: 'unique in the company; not a built-in code',
            }),
            name: Type.String({ maxLength: MAX_NAME }),
            treatment: Treatment,
            taxable: Type.Optional(Flags.taxable),
            pensionable: Type.Optional(Flags.pensionable),
            nhf_base: Type.Optional(Flags.nhf_base),
            nsitf_base: Type.Optional(Flags.nsitf_base),
            regular: Type.Optional(Flags.regular),
            cash: Type.Optional(Flags.cash),
          }),
          response: { 201: Type.Object({ message: Type.String(), pay_item_type: Type.Ref('PayItemType') }), ...errors },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(tenantId(request), request.body)),
    );
  };
}
