// Where a mapping goes: a table (ID or pasted `.../tables/<id>` URL) at a position, or a template (ID or pasted
// `.../templates/<id>` URL). Parses the dialog's input into the service's `insert_after` value.
import { idFromUrlOrId } from '../api/url';

export type Position = { at: 'end' } | { at: 'beginning' } | { at: 'after'; columnId: string };

export type TargetRead = { ok: true; id: string } | { ok: false; message: string };

const ID_PATTERN = /^[^\s/?#]{1,200}$/;

export function readTableId(input: string): TargetRead {
  if (input.trim() === '') return { ok: false, message: 'Enter a table ID or paste the table URL' };
  const id = idFromUrlOrId('table', input);
  if (id === null) return { ok: false, message: 'That URL has no /tables/<id> part: paste the table URL or its ID' };
  if (!ID_PATTERN.test(id)) return { ok: false, message: 'A table ID has no spaces or slashes' };
  return { ok: true, id };
}

/** Like the client's idFromUrlOrId, for template URLs (`https://<app host>/templates/<id>`). */
export function readTemplateId(input: string): TargetRead {
  const textValue = input.trim();
  if (textValue === '') return { ok: false, message: 'Enter a template ID or paste the template URL' };
  let id = textValue;
  if (textValue.includes('/')) {
    const match = /\/templates\/([^/?#]+)/.exec(textValue);
    if (!match) return { ok: false, message: 'That URL has no /templates/<id> part: paste the template URL or its ID' };
    try {
      id = decodeURIComponent(match[1]).trim();
    } catch {
      id = match[1];
    }
  }
  if (!ID_PATTERN.test(id)) return { ok: false, message: 'A template ID has no spaces or slashes' };
  return { ok: true, id };
}

/** Reads the dialog's position; an "after" position needs a column ID. */
export function readPosition(raw: unknown): { ok: true; position: Position } | { ok: false; message: string } {
  const value = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  if (value.at === 'beginning') return { ok: true, position: { at: 'beginning' } };
  if (value.at === 'after') {
    const columnId = typeof value.columnId === 'string' ? value.columnId.trim() : '';
    if (columnId === '') return { ok: false, message: 'Choose or enter the column ID to insert after' };
    if (!ID_PATTERN.test(columnId)) return { ok: false, message: 'A column ID has no spaces or slashes' };
    return { ok: true, position: { at: 'after', columnId } };
  }
  return { ok: true, position: { at: 'end' } };
}

/** The service's `insert_after`: true = at the end, false = at the beginning, a column ID = after that column. */
export function insertAfter(position: Position): boolean | string {
  if (position.at === 'end') return true;
  if (position.at === 'beginning') return false;
  return position.columnId;
}
