// The one e-mail rule of every surface (users, companies, invoices, wallet): a local part without
// spaces, control characters, angle brackets, quotes or separators, and a DNS host name of at least
// two labels (each 1-63 letters, digits or inner hyphens); at most 254 characters in all (RFC 5321).

const EMAIL =
  /^[^\s@<>()[\],;:"\p{Cc}]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/u;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}
