'use strict';
// Minimal path router shared by the API and the control endpoints: patterns like
// '/companies/:companyId/documents/:documentId', matched segment by segment (no trailing-slash leniency).

const { apiError } = require('./errors');

function compile(pattern) {
  return pattern.split('/').slice(1);
}

function decodeSegment(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw apiError(400, `Malformed percent-encoding in path segment "${segment}"`);
  }
}

function matchPattern(segments, pathSegments) {
  if (segments.length !== pathSegments.length) return null;
  const params = {};
  for (let i = 0; i < segments.length; i += 1) {
    if (segments[i].startsWith(':')) {
      // Path parameters are required (spec rule 1): an empty segment matches nothing.
      if (pathSegments[i] === '') return null;
      params[segments[i].slice(1)] = decodeSegment(pathSegments[i]);
    } else if (segments[i] !== pathSegments[i]) {
      return null;
    }
  }
  return params;
}

/**
 * routes: [{method, path, ...anything}]. Returns `find(method, path)` giving
 * `{route, params}`, `{allowedMethods}` when the path exists for other methods, or null.
 * HEAD is served by GET routes (Node drops the body of HEAD answers).
 */
function createRouter(routes) {
  const compiled = routes.map((route) => ({ route, segments: compile(route.path) }));
  return function find(method, path) {
    const pathSegments = path.split('/').slice(1);
    const wanted = method === 'HEAD' ? 'GET' : method;
    const allowedMethods = [];
    for (const { route, segments } of compiled) {
      const params = matchPattern(segments, pathSegments);
      if (!params) continue;
      if (route.method === wanted) return { route, params };
      allowedMethods.push(route.method);
    }
    return allowedMethods.length > 0 ? { allowedMethods } : null;
  };
}

module.exports = { createRouter };
