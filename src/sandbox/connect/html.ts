/** A tagged template for server-rendered HTML: every interpolated value is escaped unless marked raw. */

export class RawHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

type Value = string | number | RawHtml | readonly RawHtml[] | null | undefined | false;

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof RawHtml) return value.value;
  if (Array.isArray(value)) return value.map((item: RawHtml) => item.value).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): RawHtml {
  return new RawHtml(
    strings.reduce((out, string, index) => out + string + (index < values.length ? render(values[index]) : ''), ''),
  );
}
