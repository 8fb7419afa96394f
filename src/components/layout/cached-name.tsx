import { skipToken, useQuery, type QueryKey } from '@tanstack/react-query';

/**
 * A resource's name for a breadcrumb, read from the cache its route's loader fills (an export, a
 * plugin, an insight, a domain); "…" until then. It never fetches itself, so the route tree does
 * not carry the resource's contract.
 */
export function CachedName<T>({ queryKey, name }: { queryKey: QueryKey; name: (data: T) => string }) {
  const { data } = useQuery<T>({ queryKey, queryFn: skipToken });
  return <>{data === undefined ? '…' : name(data)}</>;
}
