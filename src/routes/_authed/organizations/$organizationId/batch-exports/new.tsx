import { createFileRoute } from '@tanstack/react-router';
import { NewBatchExportPage } from '@/features/batch-exports/components/batch-export-form-page';

export const Route = createFileRoute('/_authed/organizations/$organizationId/batch-exports/new')({
  staticData: { crumb: 'New' },
  component: NewBatchExportRoute,
});

function NewBatchExportRoute() {
  const { organizationId } = Route.useParams();
  const navigate = Route.useNavigate();
  return (
    <NewBatchExportPage
      organizationId={organizationId}
      onSaved={(created) =>
        void navigate({
          to: '/organizations/$organizationId/batch-exports/$batchExportId',
          params: { organizationId, batchExportId: created.id },
        })
      }
      onCancel={() => void navigate({ to: '/organizations/$organizationId/batch-exports', params: { organizationId } })}
    />
  );
}
