// The CLI's operator commands in-process, through the admin service on the configured database
// (DATA_DIR or DATABASE_URL): loaded by main.ts only for a command that runs there.
import type { Config } from '../config.js';
import { createAdminService } from '../modules/admin/index.js';
import { createCompanyVocabularyService } from '../modules/companies/index.js';
import { createStandaloneAdminsService } from '../modules/users/index.js';
import { runAsActor } from '../platform/audit/index.js';
import { AuthCache } from '../platform/auth/authenticate.js';
import { DomainError } from '../platform/errors.js';
import { createMailer } from '../platform/mail/outbox.js';
import { openConfiguredDatabase, prepareDatabase } from '../runtime.js';
import { CliError, type OperatorClient } from './operator-client.js';

/** The CLI's direct changes are the operator's (docs/audit.md, "Who"). */
const CLI_OPERATOR = { type: 'operator' as const, id: 'cli', email: null };

/** Service errors become CLI errors with every field message. */
async function explain<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await runAsActor(CLI_OPERATOR, work);
  } catch (error) {
    if (error instanceof DomainError) {
      const details = error.fields ? Object.values(error.fields).flat() : [error.message];
      throw new CliError(details.join('\n'));
    }
    throw error;
  }
}

export async function directClient(config: Config): Promise<OperatorClient> {
  const opened = await openConfiguredDatabase(config);
  try {
    await prepareDatabase(opened.database);
  } catch (error) {
    await opened.close();
    throw error;
  }
  // A server running elsewhere on the same PostgreSQL sees changes within 1 s: they move the
  // authentication generation (docs/decisions.md, "Authentication cache: up to 60 s, revocation within 1 s").
  const authCache = new AuthCache();
  const vocabulary = createCompanyVocabularyService({ db: opened.database.db, authCache });
  const service = createAdminService({ db: opened.database.db, authCache, config, vocabulary });
  return {
    createCompany: (input) => explain(() => service.createCompany(input)),
    updateCompany: (id, input) => explain(() => service.updateCompany(id, input)),
    generateToken: (id, input) => explain(() => service.generateToken(id, input)),
    revokeToken: (id) => explain(() => service.revokeToken(id)),
    listOutbox: (query) => explain(() => service.listOutbox(query)),
    inviteAdmin: async (companyId, input) => {
      const mailer = createMailer({ perCompanyPerHour: config.mailPerCompanyPerHour });
      const admins = createStandaloneAdminsService({ db: opened.database.db, mailer, config });
      // The operator acts for the company: any role, and the e-mail goes to the outbox as well.
      const invited = await explain(() => admins.invite(companyId, 'operator', input, true));
      return {
        message: 'Administrator invited. Give them the onboarding link (valid 7 days, once); the invitation e-mail is in the outbox.',
        user: invited.user,
        role: invited.role,
        onboarding_link: invited.link,
      };
    },
    close: () => opened.close(),
  };
}
