// Every feature module, in the order they build on each other. Each wires itself.
import type { FeatureModule } from '../platform/deps.js';
import { webModule } from '../web/web.module.js';
import { adminModule } from './admin/admin.module.js';
import { companiesModule } from './companies/companies.module.js';
import { invoicesModule } from './invoices/invoices.module.js';
import { payrollModule } from './payroll/payroll.module.js';
import { usersModule } from './users/users.module.js';
import { walletModule } from './wallet/wallet.module.js';

export const modules: FeatureModule[] = [usersModule, payrollModule, companiesModule, invoicesModule, walletModule, adminModule, webModule];
