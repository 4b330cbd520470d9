import { createRequire } from 'node:module';

/**
 * The SAML code's one XML reader: @xmldom/xmldom, the parser node-saml itself uses. Used for the shape of
 * posted responses (acs.ts) and for identity provider metadata (metadata.ts).
 */

/** The few DOM members read here. xmldom's own typings pull the browser DOM library into the whole program. */
export interface XmlElement {
  localName: string;
  namespaceURI: string | null;
  textContent: string | null;
  parentNode: XmlElement | null;
  getAttribute(name: string): string | null;
  getElementsByTagNameNS(ns: string, name: string): XmlList;
}
export interface XmlList {
  length: number;
  item(i: number): XmlElement | null;
}
export interface XmlDocument {
  documentElement: XmlElement | null;
  getElementsByTagNameNS(ns: string, name: string): XmlList;
}
type ErrorHandler = { warning: () => void; error: () => void; fatalError: () => void };
const { DOMParser } = createRequire(import.meta.url)('@xmldom/xmldom') as {
  DOMParser: new (opts: { errorHandler: ErrorHandler }) => { parseFromString(xml: string, type: string): XmlDocument };
};

/** Whether the text declares a document type or entities, which no SAML message or metadata needs. */
export const hasDoctype = (xml: string) => /<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml);

/** Parses XML; null when it is not well-formed. */
export function parseXml(xml: string): XmlDocument | null {
  let broken = false;
  const fail = () => {
    broken = true;
  };
  const doc = new DOMParser({ errorHandler: { warning: () => {}, error: fail, fatalError: fail } }).parseFromString(
    xml,
    'text/xml',
  );
  return broken || !doc?.documentElement ? null : doc;
}

/** The elements of a list, as an array. */
export function elements(list: XmlList): XmlElement[] {
  const out: XmlElement[] = [];
  for (let i = 0; i < list.length; i++) {
    const el = list.item(i);
    if (el) out.push(el);
  }
  return out;
}
