// The measured server's API as the bench's target finders read it (signed in with a cookie).

export async function getJson<T>(origin: string, cookie: string, path: string): Promise<T> {
  const response = await fetch(`${origin}${path}`, { headers: { cookie, origin } });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<T>;
}

/** GET that answers null when the endpoint does not exist yet (404 before its issue lands). */
export async function probeJson<T>(origin: string, cookie: string, path: string): Promise<T | null> {
  const response = await fetch(`${origin}${path}`, { headers: { cookie, origin } });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<T>;
}
