import { Monitor, Moon, Sun } from 'lucide-react';
import { THEMES, useTheme, type Theme } from '@/lib/theme';

const OPTIONS: Record<Theme, { label: string; Icon: typeof Sun }> = {
  light: { label: 'Light', Icon: Sun },
  dark: { label: 'Dark', Icon: Moon },
  system: { label: 'System', Icon: Monitor },
};

/**
 * Light, dark or the system's theme: three radio buttons drawn as icons (native radios, so arrow
 * keys move between them and a screen reader names the group and each choice).
 */
export function ThemeToggle() {
  const [theme, setTheme] = useTheme();
  return (
    <fieldset className="flex shrink-0 rounded-md border border-gray-300 p-0.5 dark:border-gray-700">
      <legend className="sr-only">Theme</legend>
      {THEMES.map((value) => {
        const { label, Icon } = OPTIONS[value];
        return (
          <label
            key={value}
            title={label}
            className="relative inline-flex size-7 cursor-pointer items-center justify-center rounded text-gray-600 hover:text-gray-900 has-checked:bg-gray-200 has-checked:text-gray-900 has-focus-visible:outline-2 has-focus-visible:outline-offset-1 has-focus-visible:outline-indigo-600 dark:text-gray-400 dark:hover:text-gray-100 dark:has-checked:bg-gray-700 dark:has-checked:text-gray-100 dark:has-focus-visible:outline-indigo-400"
          >
            <input
              type="radio"
              name="theme"
              value={value}
              checked={theme === value}
              onChange={() => setTheme(value)}
              // Covers its label, drawn as nothing: a click or tap lands on the radio itself.
              className="absolute inset-0 m-0 cursor-pointer appearance-none"
            />
            <Icon aria-hidden="true" className="pointer-events-none size-4" />
            <span className="sr-only">{label}</span>
          </label>
        );
      })}
    </fieldset>
  );
}
