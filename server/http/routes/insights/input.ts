import type { InsightCreate, InsightUpdate } from '../../../../src/contract/index.ts';
import { createFields, updatedFields, type InsightUpdateResult } from '../../../insights/fields.ts';
import { InsightInputError } from '../../../insights/query.ts';
import type { InsightFields, InsightRow } from '../../../store/insights.ts';
import { validationError } from '../../errors.ts';

/** Runs `fn`; a bad filters/query shape becomes the API's 400 naming the field. */
function withApiErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof InsightInputError) throw validationError(error.code, error.message, error.attr);
    throw error;
  }
}

export const insightCreateFields = (body: InsightCreate, at: string, userId: number): InsightFields =>
  withApiErrors(() => createFields(body, at, userId));

export const insightUpdateFields = (row: InsightRow, body: InsightUpdate, at: string, userId: number): InsightUpdateResult =>
  withApiErrors(() => updatedFields(row, body, at, userId));
