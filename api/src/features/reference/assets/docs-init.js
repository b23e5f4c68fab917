// Starts Swagger UI on /api/docs. A file rather than an inline script: the Content-Security-Policy allows scripts
// from this origin only.
window.addEventListener('DOMContentLoaded', function () {
  window.ui = window.SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    // No call to the public validator service: the product may run without internet.
    validatorUrl: null,
    withCredentials: true,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    // Every group starts folded: with all of the 140-odd operations listed at once Swagger UI stopped rendering after
    // the first ten, and a folded list of groups is the easier way into an API this size anyway.
    docExpansion: 'none',
  });
});
