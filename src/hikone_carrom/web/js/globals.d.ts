// Types for tsc --checkJs only (the pages never load this file).

// The pages' elements come from their own HTML and templates, so a lookup by id or selector
// finds its element (the end-to-end tests open every page); code that may look in vain checks
// for null all the same.
interface Document {
  getElementById(elementId: string): HTMLElement;
}
interface ParentNode {
  querySelector<K extends keyof HTMLElementTagNameMap>(selectors: K): HTMLElementTagNameMap[K];
  querySelector<E extends HTMLElement = HTMLElement>(selectors: string): E;
}
interface ParentNode {
  querySelectorAll<K extends keyof HTMLElementTagNameMap>(selectors: K): NodeListOf<HTMLElementTagNameMap[K]>;
  querySelectorAll<E extends HTMLElement = HTMLElement>(selectors: string): NodeListOf<E>;
}

// The message an element shows in the page's language (i18n.js show).
interface HTMLElement {
  _msg?: import("./i18n.js").Message;
}

// What the pages leave on window for the end-to-end tests (tests/e2e reach in through these).
interface Window {
  __game?: import("./room.js").RoomPage | null;
  __replay?: import("./games.js").ReplayPage;
  __pad?: unknown; // the pad's hooks (pad/pad.js PadPage.hooks)
  __watch?: unknown; // the pad's read-only board view (pad/pad.js WatchPage)
  webkitAudioContext?: typeof AudioContext; // Safari before 14.1
}

// The parts of a service worker's scope that pad/sw.js uses (the DOM library has no worker
// scope, and the WebWorker one cannot be loaded beside it).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  // nothing (a cache miss offline) fails the request as the network would have
  respondWith(response: Response | Promise<Response | undefined>): void;
}
interface PadServiceWorkerScope {
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
  skipWaiting(): Promise<void>;
  readonly clients: { claim(): Promise<void> };
}
