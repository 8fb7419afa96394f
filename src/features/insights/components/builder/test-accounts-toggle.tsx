import { useId } from 'react';
import { Switch } from '@/components/ui/switch';

/** The `filter_test_accounts` switch. */
export function TestAccountsToggle({ value, onChange }: { value: boolean; onChange: (v: boolean) => void }) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-3">
      <label htmlFor={id} className="text-sm font-medium">
        Filter out internal and test users
      </label>
      <Switch id={id} checked={value} onCheckedChange={onChange} />
    </div>
  );
}
