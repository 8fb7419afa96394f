import { createFileRoute } from '@tanstack/react-router';
import { EditBatchExportPage } from '@/features/batch-exports/components/batch-export-form-page';

export const Route = createFileRoute('/_authed/organizations/$organizationId/batch-exports/$batchExportId/edit')({
  staticData: { crumb: 'Edit' },
  component: EditBatchExportRoute,
});

function EditBatchExportRoute() {
  const { organizationId, batchExportId } = Route.useParams();
  const navigate = Route.useNavigate();
  const toDetail = () =>
    void navigate({
      to: '/organizations/$organizationId/batch-exports/$batchExportId',
      params: { organizationId, batchExportId },
    });
  return (
    <EditBatchExportPage
      organizationId={organizationId}
      batchExportId={batchExportId}
      onSaved={toDetail}
      onCancel={toDetail}
    />
  );
}
