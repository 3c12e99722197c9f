// What a request's URL looks like in its log line: secrets in the path and the query string are
// replaced, everything else is kept as the client sent it.
import { describe, expect, it } from 'vitest';
import { redactUrl } from './logging.js';

describe('redactUrl', () => {
  it.each([
    ['/api/users', '/api/users'],
    ['/api/users?per_page=20&page=3', '/api/users?per_page=20&page=3'],
    ['/api/users?token=abc&page=2', '/api/users?token=[redacted]&page=2'],
    ['/api/users?page=2&TOKEN=abc', '/api/users?page=2&TOKEN=[redacted]'],
    [
      '/x?access_token=a&api_key=b&apikey=c&key=d&password=e&password_confirmation=f&secret=g&signature=h&code=i',
      '/x?access_token=[redacted]&api_key=[redacted]&apikey=[redacted]&key=[redacted]&password=[redacted]&password_confirmation=[redacted]&secret=[redacted]&signature=[redacted]&code=[redacted]',
    ],
    // Percent-encoded names are decoded before they are compared.
    ['/x?%74oken=abc&q=%20', '/x?%74oken=[redacted]&q=%20'],
    ['/x?to%6Ben=abc', '/x?to%6Ben=[redacted]'],
    // Names that only contain or start like a secret's are kept, and so is a secret name without a value.
    ['/x?keys=1&tokenized=2&mytoken=3&token', '/x?keys=1&tokenized=2&mytoken=3&token'],
    ['/x?q=token=abc', '/x?q=token=abc'],
    // A malformed escape does not stop the rest from being checked.
    ['/x?%E0%A4%A=1&code=2', '/x?%E0%A4%A=1&code=[redacted]'],
    ['/onboarding/s3cr3t-link?x=1', '/onboarding/[redacted]?x=1'],
  ])('%s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});
