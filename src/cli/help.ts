// What `payroll --help` prints: every command and where the operator commands act (docs/operations.md).
export const HELP = `payroll - the Payroll API server and its operator tools

Usage:
  payroll serve                               start the HTTP server (same as npm start)
  payroll migrate                             apply pending database migrations and exit
  payroll company create --name <name> --domain <domain>
          [--plan standard|premium|enterprise] [--payment-frequency weekly|bi-weekly|monthly]
          [--user-type <name>]... [--role <name>]... [--redirect-domain <host>]... [--scopes a,b]
                                              create a root company and print its API token (once)
  payroll company update --company <id> [--plan <plan>] [--api-access on|off]
          [--add-domain <domain>]... [--add-user-type <name>]... [--add-role <name>]...
          [--redirect-domain <host>]... [--clear-redirect-domains]
                                              change a company (redirect domains replace the list)
  payroll token generate --company <id> [--scopes a,b]
                                              issue a new API token; the previous one stops working
  payroll token revoke --company <id>         revoke the company's API token
  payroll admin invite --company <id> --email <address> [--first-name <name>] [--last-name <name>]
          [--role super-admin|admin]
                                              invite an administrator (default super-admin) and print
                                              the onboarding link that sets their password (database only)
  payroll outbox [--to <address>] [--limit <n>]
                                              e-mails in the outbox, newest first
  payroll prune [--jobs-days 7] [--failed-jobs-days 30] [--webhook-days 30]
                                              delete finished jobs and finished webhook events older
                                              than that, in batches (on the configured database)
  payroll audit verify [--company <id>]       recompute every audit chain (or one company's) on the
                                              configured database; exit 1 naming the first broken link

Where the operator commands act:
  --url <base> (or PAYROLL_URL) with ADMIN_TOKEN   over HTTP, through a running server's /admin API
  otherwise                                        directly on the configured database: DATABASE_URL,
                                                   or the embedded database in DATA_DIR (default ./data;
                                                   not while a server is running on that DATA_DIR)

Repeatable options also take comma-separated lists. Every environment setting of the server
(DATA_DIR, DATABASE_URL, TOKEN_TTL_SECONDS, ...) applies. Options: -h, --help.
`;
