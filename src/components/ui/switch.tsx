import type { ComponentProps } from 'react';
import { cn } from './cn';

type SwitchProps = Omit<ComponentProps<'input'>, 'type' | 'role' | 'onChange'> & {
  onCheckedChange?: (checked: boolean) => void;
};

/**
 * An on/off switch: the platform's checkbox with the switch role (Space toggles, a label or
 * `aria-label` names it, `checked` and `disabled` as any input), drawn as a track and thumb by
 * `.switch-input` in styles.css. One element: a list of them costs no more than its checkboxes.
 * A controlled switch (`checked` given) shows what its owner says, not the click: the owner's
 * next render moves it, so a switch waiting for the server does not flip back and forth.
 */
export function Switch({ className, onCheckedChange, checked, ...props }: SwitchProps) {
  return (
    <input
      type="checkbox"
      role="switch"
      className={cn('switch-input', className)}
      checked={checked}
      onChange={(event) => {
        const next = event.currentTarget.checked;
        if (checked !== undefined) event.currentTarget.checked = checked;
        onCheckedChange?.(next);
      }}
      {...props}
    />
  );
}
