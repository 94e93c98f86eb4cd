import { readFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { validateXML } from 'xmllint-wasm';
import { projectRoot } from '../../core/paths.ts';

/**
 * Our schema of CAP 1.2, written from the standard's data dictionary (see
 * the file's header): libxml2 (xmllint, as WebAssembly) checks documents
 * against it, so order, cardinality and fixed values are checked by a real
 * XSD validator, not by the code that wrote them.
 */
const CAP_XSD = readFileSync(path.join(projectRoot, 'test', 'fixtures', 'cap', 'cap-1.2-data-dictionary.xsd'), 'utf8');

/** The problems libxml2 finds in a CAP document against the schema; none: valid. */
export async function capSchemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'alert.xml', contents: xml }], schema: [{ fileName: 'cap.xsd', contents: CAP_XSD }] });
  return result.errors.map((error) => error.rawMessage);
}

/** The element names of a document's children, in document order (parsed, not regex-matched). */
export function childOrder(xml: string, path: string[]): string[] {
  const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: true, ignoreDeclaration: true });
  let nodes = parser.parse(xml) as Array<Record<string, unknown>>;
  for (const name of path) nodes = (nodes.find((node) => name in node)?.[name] ?? []) as Array<Record<string, unknown>>;
  return nodes.map((node) => Object.keys(node)[0]).filter((name) => name !== '#text');
}

export interface ParsedCapAlert {
  identifier: string;
  sender: string;
  sent: string;
  status: string;
  msgType: string;
  scope: string;
  references?: string;
  info: {
    language: string;
    category: string;
    event: string;
    urgency: string;
    severity: string;
    certainty: string;
    onset?: string;
    expires?: string;
    headline: string;
    description: string;
    area: { areaDesc: string };
  };
}

export function parseCap(xml: string): ParsedCapAlert {
  const parsed = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(xml) as { alert: ParsedCapAlert & { '@_xmlns': string } };
  if (parsed.alert['@_xmlns'] !== 'urn:oasis:names:tc:emergency:cap:1.2') throw new Error(`not a CAP 1.2 alert: ${parsed.alert['@_xmlns']}`);
  return parsed.alert;
}

/** The `sender,identifier,sent` triples of a references element. */
export function referencesOf(alert: ParsedCapAlert): Array<{ sender: string; identifier: string; sent: string }> {
  return (alert.references ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((triple) => {
      const [sender, identifier, sent] = triple.split(',');
      return { sender, identifier, sent };
    });
}
