import { useNavigate } from '@tanstack/react-router';
import { toast } from '@/lib/toast';
import type { InsightCreateInput } from '@/contract/insights';
import { insightTitle } from '../../api/insight-title';
import { useCreateInsight } from '../../api/insights.mutations';

/**
 * "Save" of a new insight and "Save as new" of a saved one: creates the insight, says so, and
 * opens its edit route (past the leave guard: nothing is lost, the copy holds the edits).
 */
export function useCreateAndOpen(projectId: number) {
  const create = useCreateInsight(projectId);
  const navigate = useNavigate();
  return async (body: InsightCreateInput) => {
    const created = await create.mutateAsync({ ...body, saved: true });
    toast.success(`Saved “${insightTitle(created)}”`);
    void navigate({
      to: '/projects/$projectId/insights/$insightId/edit',
      params: { projectId, insightId: created.short_id },
      search: {},
      ignoreBlocker: true,
    });
    return created;
  };
}
