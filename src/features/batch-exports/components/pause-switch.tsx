import { batchExportEndpoints, type BatchExport } from '@/contract/batch-exports';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Switch } from '@/components/ui/switch';

interface PauseSwitchProps {
  batchExport: Pick<BatchExport, 'id' | 'name' | 'paused'>;
  onPausedChange: (paused: boolean) => void;
}

/**
 * On = the export runs, off = paused. Named "Active: <export>"; disabled, with the missing
 * scope in a tooltip, when the key cannot write batch exports.
 */
export function PauseSwitch({ batchExport, onPausedChange }: PauseSwitchProps) {
  return (
    <ScopedAction scope={batchExportEndpoints.pause.access}>
      <Switch
        aria-label={`Active: ${batchExport.name}`}
        checked={!batchExport.paused}
        onCheckedChange={(active) => onPausedChange(!active)}
      />
    </ScopedAction>
  );
}
