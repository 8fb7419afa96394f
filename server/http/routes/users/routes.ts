import { endpoints } from '../../../../src/contract/index.ts';
import { notFound } from '../../errors.ts';
import type { Router } from '../../router.ts';
import type { Deps } from '../../types.ts';
import { userResponse } from './serializers.ts';

/** `users/@me/`: the user the calling key belongs to (any valid key). */
export function registerUserRoutes(router: Router, { store }: Deps): void {
  router.route(endpoints.users.me, ({ auth }) => {
    const user = store.users.get(auth.userId);
    if (!user) throw notFound();
    return userResponse(user);
  });
}
