// The typed HTTP client, served as /web/openapi-fetch.js: web/build.mjs copies the ES module
// of the pinned npm package there; its types come from the package itself.
export * from "openapi-fetch";
export { default } from "openapi-fetch";
