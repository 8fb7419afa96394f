import { SSO_ENFORCEMENT_VALUES } from '@/contract/domains';

const LABELS: Record<(typeof SSO_ENFORCEMENT_VALUES)[number], string> = {
  '': 'Not enforced',
  'google-oauth2': 'Google',
  github: 'GitHub',
  gitlab: 'GitLab',
  saml: 'SAML',
};

export const SSO_OPTIONS = SSO_ENFORCEMENT_VALUES.map((value) => ({ value, label: LABELS[value] }));
export const ssoLabel = (value: string) => (LABELS as Record<string, string>)[value] ?? value;

const PEM = /^-----BEGIN CERTIFICATE-----\r?\n([A-Za-z0-9+/=\r\n]+)\r?\n-----END CERTIFICATE-----\s*$/;

/** Null when `text` is one PEM certificate (base64 between the BEGIN/END lines), else why not. */
export function pemProblem(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const match = PEM.exec(trimmed);
  if (!match)
    return 'Paste the certificate in PEM form: from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----.';
  const body = match[1]!.replace(/\s+/g, '');
  if (body.length < 16 || body.length % 4 !== 0)
    return 'The certificate between the BEGIN and END lines is not valid base64.';
  return null;
}
