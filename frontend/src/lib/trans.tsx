// Messages with elements in them; apart from src/lib/i18n.ts so the pages without any do not
// download it.
import { cloneElement, Fragment, isValidElement, type ReactElement, type ReactNode } from 'react';
import { useMessages, type Page } from './i18n';

export type TransProps = { id: string; values?: Record<string, unknown>; components?: Record<string, ReactElement> };

// <name>inner</name> or <name/>, as written in the catalogues.
const TAG = /<(\w+)>([\s\S]*?)<\/\1>|<(\w+)\/>/;

function withElements(text: string, components: Record<string, ReactElement>): ReactNode[] {
  const parts: ReactNode[] = [];
  let rest = text;
  for (let match = TAG.exec(rest); match; match = TAG.exec(rest)) {
    if (match.index > 0) parts.push(rest.slice(0, match.index));
    const element = components[match[1] ?? match[3]];
    const inner = match[1] === undefined ? [] : withElements(match[2], components);
    parts.push(
      element
        ? cloneElement(element, { key: parts.length }, ...(inner.length > 0 ? inner : [(element.props as { children?: ReactNode }).children]))
        : inner,
    );
    rest = rest.slice(match.index + match[0].length);
  }
  if (rest) parts.push(rest);
  return parts;
}

/** A message with elements: `<Trans id="<page>.<id>" components={{ link: <Link to="/contact" /> }} />`
 * for "Write to <link>us</link>". Text and element values are slotted in after the tags are
 * read, so a value (a visitor's name) is never read as markup. */
export function Trans({ id, values = {}, components = {} }: TransProps) {
  const t = useMessages(id.split('.')[0] as Page);
  const slots: Record<string, unknown> = {};
  const all: Record<string, ReactElement> = { ...components };
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'number') {
      slots[name] = value;
    } else {
      slots[name] = `<value_${name}/>`;
      all[`value_${name}`] = isValidElement(value) ? value : <Fragment>{String(value)}</Fragment>;
    }
  }
  return <>{withElements(t(id, slots), all)}</>;
}
