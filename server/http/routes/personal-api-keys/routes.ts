import { endpoints } from '../../../../src/contract/index.ts';
import type { Router } from '../../router.ts';
import { personalApiKeyResponse } from './serializers.ts';

export function registerPersonalApiKeyRoutes(router: Router): void {
  router.route(endpoints.personalApiKeys.current, ({ auth }) => personalApiKeyResponse(auth.key));
}
