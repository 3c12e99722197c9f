// The getting-started of the reference's introduction; docs/getting-started.md holds the same text
// (the reference test checks that they agree).

export const GETTING_STARTED = `## Getting started

From nothing to a paid salary and its webhook, with \`curl\`. \`$BASE\` is this deployment's address
(the server above), \`$TOKEN\` your company's API token.

**1. A token.** The operator creates your company and its token (\`ADMIN_TOKEN\` is the operator's
secret); an administrator can also issue one in the console under Security → API, and \`npm start\`
with \`SEED_DEMO=true\` prints a demo company's token. The token is shown once.

\`\`\`sh
curl -X POST "$BASE/admin/companies" -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' \\
  -d '{"name": "Adebayo Logistics Ltd", "domain": "adebayo-logistics.ng", "user_types": ["Full-time"]}'
# → 201 {"company": {...}, "token": "pk_…", "expires_at": "…", "scopes": ["all"]}
export TOKEN=pk_…
\`\`\`

**2. An employee.** Salary and allowances are naira per pay period, as decimal text; the account
number is a 10-digit NUBAN of the bank.

\`\`\`sh
curl -X POST "$BASE/api/users" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
  -d '{"first_name": "Chiamaka", "last_name": "Okafor", "personal_email": "chiamaka.okafor@example.com",
       "domain_name": "adebayo-logistics.ng", "user_types": "Full-time", "start_date": "2024-03-01",
       "base_salary": "350000.00", "allowances": "75000.00",
       "bank_name": "Guaranty Trust Bank", "account_number": "2119371247", "is_active": true}'
# → 200 {"message": "User created successfully", "user": {"id": 1042, ...}}
\`\`\`

**3. A run.** A draft run of every active employee for the period, from their salaries.

\`\`\`sh
curl -X POST "$BASE/api/payroll-runs" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
  -d '{"pay_period_start": "2025-05-01", "pay_period_end": "2025-05-31", "payment_date": "2025-05-28",
       "created_by_email": "tunde.adeyemi@adebayo-logistics.ng"}'
# → 201 {"message": "Payroll run created.", "run": {"id": "PR-20250528-7F3K9Q", "status": "draft", "totals": {...}, ...}}
\`\`\`

**4. Approval.** Another active admin of the company than the run's creator approves it.

\`\`\`sh
curl -X POST "$BASE/api/payroll-runs/PR-20250528-7F3K9Q/approve" -H "Authorization: Bearer $TOKEN" \\
  -H 'Content-Type: application/json' -d '{"approver_email": "ngozi.eze@adebayo-logistics.ng"}'
# → 200 {"message": "Payroll run approved.", "run": {"status": "approved", ...}}
\`\`\`

**5. Pay.** The wallet must hold the run's net pay (top it up with \`POST /api/wallet/top-up\`;
\`GET /api/wallet/balance\` shows it). Send an \`Idempotency-Key\`: a retry of the same request
replays the first answer and never pays twice.

\`\`\`sh
curl -X POST "$BASE/api/payroll-runs/PR-20250528-7F3K9Q/pay" -H "Authorization: Bearer $TOKEN" \\
  -H "Idempotency-Key: $(uuidgen)" -H 'Content-Type: application/json' -d '{}'
# → 202 {"message": "Payment started.", "run": {"status": "processing", ...}}; transfers settle in the background
\`\`\`

**6. The payslip.** Each paystub has a PDF payslip; the run's payslips also come as one ZIP.

\`\`\`sh
curl "$BASE/api/paystubs?transaction_id=PR-20250528-7F3K9Q" -H "Authorization: Bearer $TOKEN"
curl -o payslip.pdf "$BASE/api/paystubs/5531/payslip" -H "Authorization: Bearer $TOKEN"
curl -o payslips.zip "$BASE/api/payroll-runs/PR-20250528-7F3K9Q/payslips" -H "Authorization: Bearer $TOKEN"
\`\`\`

**7. A webhook.** Register an https endpoint for the events you want; the answer carries its
signing secret once. Every delivery is signed as Standard Webhooks say (\`webhook-id\`,
\`webhook-timestamp\`, \`webhook-signature\`); verify it before trusting the body.

\`\`\`sh
curl -X POST "$BASE/api/webhook-endpoints" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
  -d '{"url": "https://hooks.adebayo-logistics.ng/payroll", "events": ["payroll_run.paid", "paystub.paid"]}'
# → 201 {"message": "...", "endpoint": {"id": 7, ...}, "secret": "whsec_…"}
curl -X POST "$BASE/api/webhook-endpoints/7/test" -H "Authorization: Bearer $TOKEN" -d '{}' -H 'Content-Type: application/json'
\`\`\`
`;
