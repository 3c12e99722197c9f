// The users feature's e-mails (docs/users.md, "The users rules"). Content is ours to choose (the
// published interface: "not shown"); every message names the company and never contains a password.
import type { MailMessage } from '../../platform/mail/outbox.js';

interface Person {
  companyId: number;
  firstName: string;
  personalEmail: string;
  email: string;
}

export const onboardingLink = (publicUrl: string, token: string) => `${publicUrl}/onboarding/${token}`;

export function invitationMail(person: Person, company: string, link: string): MailMessage {
  return {
    companyId: person.companyId,
    to: person.personalEmail,
    subject: `You are invited to join ${company}`,
    text:
      `Hello ${person.firstName},\n\n${company} has added you as an employee. Your company e-mail is ${person.email}.\n\n` +
      `Set your password to complete onboarding (the link expires in 7 days):\n${link}\n`,
  };
}

export function welcomeMail(person: Person, company: string): MailMessage {
  return {
    companyId: person.companyId,
    to: person.personalEmail,
    subject: `Welcome to ${company}`,
    text: `Hello ${person.firstName},\n\nWelcome to ${company}. Your company e-mail is ${person.email}.\n`,
  };
}

export function detailsChangedMail(person: Person, company: string, changed: string[]): MailMessage {
  return {
    companyId: person.companyId,
    to: person.personalEmail,
    subject: `Your employee details at ${company} were updated`,
    text: `Hello ${person.firstName},\n\nThe following details were updated: ${changed.join(', ')}.\nIf you did not expect this, contact your administrator.\n`,
  };
}

export function activatedMail(person: Person, company: string): MailMessage {
  return {
    companyId: person.companyId,
    to: person.personalEmail,
    subject: `Your account at ${company} is active`,
    text: `Hello ${person.firstName},\n\nYour employee account at ${company} (${person.email}) has been activated.\n`,
  };
}
