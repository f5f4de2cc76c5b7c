import { isIPv4, isIPv6 } from 'node:net';

/**
 * The formats JSON Schema defines. A format outside this list (`iban`, `int32`) is not a rule
 * the schema language has, so it moves into the description where the model still reads it.
 */
export const JSON_SCHEMA_FORMATS = new Set([
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'uuid',
  'uri-template',
  'json-pointer',
  'relative-json-pointer',
  'regex',
]);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;
// The long patterns below are built from string pieces (backslashes doubled) to fit the line width.
const DURATION = new RegExp(
  // weeks alone, or ...
  '^P(?!$)(\\d+(?:\\.\\d+)?W|' +
    // ... years, months, days ...
    '(\\d+(?:\\.\\d+)?Y)?(\\d+(?:\\.\\d+)?M)?(\\d+(?:\\.\\d+)?D)?' +
    // ... then T and hours, minutes, seconds.
    '(T(?=\\d)(\\d+(?:\\.\\d+)?H)?(\\d+(?:\\.\\d+)?M)?(\\d+(?:\\.\\d+)?S)?)?)$',
);
/** A DNS label: 1 to 63 letters, digits and hyphens, starting and ending with a letter or digit. */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const EMAIL = new RegExp(`^[A-Za-z0-9.!#$%&'*+/=?^_\`{|}~-]+@${LABEL}(?:\\.${LABEL})+$`);
const HOSTNAME = new RegExp(`^(?=.{1,253}\\.?$)${LABEL}(?:\\.${LABEL})*\\.?$`);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/;

function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

function isDateTime(text: string): boolean {
  const split = text.search(/[Tt ]/);
  return split === 10 && isDate(text.slice(0, 10)) && TIME.test(text.slice(11));
}

function isUri(text: string): boolean {
  if (!URI_SCHEME.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** The formats whose values the binder checks. A defined format missing here cannot be declared. */
export const FORMAT_CHECKS: ReadonlyMap<string, (text: string) => boolean> = new Map([
  ['date-time', isDateTime],
  ['date', isDate],
  ['time', (text: string) => TIME.test(text)],
  ['duration', (text: string) => DURATION.test(text)],
  ['email', (text: string) => EMAIL.test(text)],
  ['hostname', (text: string) => HOSTNAME.test(text)],
  ['ipv4', (text: string) => isIPv4(text)],
  ['ipv6', (text: string) => isIPv6(text)],
  ['uri', isUri],
  ['uuid', (text: string) => UUID.test(text)],
]);
