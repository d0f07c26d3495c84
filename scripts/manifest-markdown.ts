/** Renders the README's element reference from custom-elements.json (schema 2.x). */

interface Described {
  name: string;
  description?: string;
  summary?: string;
  type?: { text?: string };
  default?: string;
}
interface Member extends Described {
  kind: 'field' | 'method';
  privacy?: string;
  static?: boolean;
  attribute?: string;
  readonly?: boolean;
  parameters?: Described[];
  return?: { type?: { text?: string } };
}
interface Attribute extends Described {
  fieldName?: string;
}
interface Declaration extends Described {
  kind: string;
  customElement?: boolean;
  tagName?: string;
  attributes?: Attribute[];
  members?: Member[];
  events?: Described[];
  slots?: Described[];
  cssParts?: Described[];
  cssProperties?: Described[];
}
export interface Manifest {
  modules: { path: string; declarations?: Declaration[] }[];
}

const cell = (text: string | undefined): string => (text ?? '').replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
const code = (text: string | undefined): string => (text ? `\`${cell(text)}\`` : '');

/** Longer than this, a description is a paragraph: the section is a list rather than a table. */
const TABLE_CELL_MAX = 120;

/**
 * One section of an element's reference: a table when every description fits a cell, else a list whose
 * entries read `name (fact, fact): description`. `headers` name the row's columns; the first is the
 * entry's name and the last its description, and an empty middle cell is left out of a list entry.
 */
function table(title: string, headers: string[], rows: string[][]): string {
  if (!rows.length) return '';
  const long = rows.some((row) => (row.at(-1) ?? '').length > TABLE_CELL_MAX);
  const body = long
    ? rows.map((row) => {
        const facts = row
          .slice(1, -1)
          .map((value, index) => (value ? `${headers[index + 1]!.toLowerCase()} ${value}` : ''))
          .filter(Boolean);
        const description = row.at(-1) ?? '';
        const entry = `- ${row[0]}${facts.length ? ` (${facts.join(', ')})` : ''}${description ? `: ${description}` : ''}`;
        // A pipe needs no escape outside a table.
        return entry.replace(/\\\|/g, '|');
      })
    : [
        `| ${headers.join(' | ')} |`,
        `| ${headers.map(() => '---').join(' | ')} |`,
        ...rows.map((row) => `| ${row.join(' | ')} |`),
      ];
  return [`**${title}**`, '', ...body].join('\n');
}

export function renderElementReference(manifest: Manifest): string {
  const elements = manifest.modules
    .flatMap((module) => module.declarations ?? [])
    .filter((declaration) => declaration.customElement && declaration.tagName)
    .sort((a, b) => (a.tagName ?? '').localeCompare(b.tagName ?? ''));
  return elements
    .map((element) => {
      const publicMembers = (element.members ?? []).filter((m) => !m.privacy && !m.static && !m.name.startsWith('_'));
      const properties = publicMembers.filter((m) => m.kind === 'field');
      const methods = publicMembers.filter((m) => m.kind === 'method');
      return [
        `### \`<${element.tagName}>\``,
        cell(element.summary ?? element.description),
        table(
          'Attributes',
          ['Attribute', 'Property', 'Type', 'Default', 'Description'],
          (element.attributes ?? []).map((a) => [
            code(a.name),
            code(a.fieldName),
            code(a.type?.text),
            code(a.default),
            cell(a.description),
          ]),
        ),
        table(
          'Properties',
          ['Property', 'Type', 'Description'],
          properties.filter((p) => !p.attribute).map((p) => [code(p.name), code(p.type?.text), cell(p.description)]),
        ),
        table(
          'Methods',
          ['Method', 'Description'],
          methods.map((m) => [
            code(`${m.name}(${(m.parameters ?? []).map((p) => p.name).join(', ')})`),
            cell(m.description),
          ]),
        ),
        table(
          'Events',
          ['Event', 'Detail', 'Description'],
          (element.events ?? []).map((e) => [code(e.name), code(e.type?.text), cell(e.description)]),
        ),
        table(
          'Slots',
          ['Slot', 'Description'],
          (element.slots ?? []).map((s) => [s.name ? code(s.name) : '(default)', cell(s.description)]),
        ),
        table(
          'CSS parts',
          ['Part', 'Description'],
          (element.cssParts ?? []).map((p) => [code(p.name), cell(p.description)]),
        ),
        table(
          'CSS custom properties',
          ['Property', 'Default', 'Description'],
          (element.cssProperties ?? []).map((p) => [code(p.name), code(p.default), cell(p.description)]),
        ),
      ]
        .filter((part) => part !== '')
        .join('\n\n');
    })
    .join('\n\n');
}
