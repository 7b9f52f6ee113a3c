// What the stage bundles resolve `undici` to (scripts/bundle/tsconfig.json's `paths`, which ncc's
// resolver applies; tsc, tsx and jest never see it). @actions/github and @actions/http-client import
// undici at their top level, which evaluated all of undici (its HTTP client, fetch and two base64 copies
// of its parser) at every stage's start-up, though Writ only calls it behind a proxy: without one the
// client uses the platform's fetch (packages/core/src/github/transport.ts). Here undici's module is
// bundled whole but evaluated on first use of what is read from it.
'use strict';

let undici;
const real = () => (undici ??= require('../../node_modules/undici/index.js'));

module.exports = new Proxy(
  {},
  {
    get: (_, key) => (key === '__esModule' ? undefined : real()[key]),
    has: (_, key) => key in real(),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
  },
);
