// Starts Swagger UI on this server's OpenAPI document. Everything the page
// loads comes from this server: the validator badge, which would send the
// document to validator.swagger.io, is off, and the page's
// Content-Security-Policy refuses any other host.
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
  validatorUrl: null,
  deepLinking: true,
  tryItOutEnabled: true,
  displayRequestDuration: true,
  filter: true,
  docExpansion: "list",
  defaultModelsExpandDepth: 0,
  persistAuthorization: false,
  withCredentials: false,
});
