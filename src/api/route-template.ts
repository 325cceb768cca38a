/**
 * The route template of an href, for metrics labels: `/api/clouds/1/volumes/abc;x`
 * -> `/api/clouds/:id/volumes/:id`. Service paths alternate collection and id
 * segments, with an action name in an id position only for the names below; the
 * query string and a `.json`/`.xml` suffix are dropped. Hrefs stay opaque to the rest
 * of the client: this is only a label with bounded cardinality.
 */
const ACTIONS_IN_ID_POSITION = new Set(["multi_update"]);

export function routeTemplate(href: string): string {
  const path = href.split("?", 1)[0]!.replace(/\.(json|xml)$/, "");
  const segments = path.split("/");
  // segments[0] is "" and segments[1] is "api"; collections then sit at even indexes.
  if (segments[1] !== "api") return path;
  for (let i = 3; i < segments.length; i += 2) {
    const segment = segments[i]!;
    if (segment !== "" && !ACTIONS_IN_ID_POSITION.has(segment)) segments[i] = ":id";
  }
  return segments.join("/");
}
