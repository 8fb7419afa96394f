/**
 * The one zod every schema is built with: zod/mini, whose schemas carry no methods (checks and
 * wrappers are functions: `z.optional(s)`, `s.check(z.maxLength(64))`). Its code tree-shakes and
 * a schema is cheap to build, which keeps the dashboard's first script small and quick to run.
 * Messages are zod's English ones, on both sides.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());

export { z };
