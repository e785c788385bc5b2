const tones = {
  green: "bg-green-100 text-green-800 dark:bg-green-900 dark:text-green-200",
  lime: "bg-lime-100 text-lime-800 dark:bg-lime-900 dark:text-lime-200",
  yellow: "bg-yellow-100 text-yellow-800 dark:bg-yellow-900 dark:text-yellow-200",
  red: "bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-200",
  gray: "bg-gray-200 text-gray-700 dark:bg-gray-700 dark:text-gray-200",
  blue: "bg-blue-100 text-blue-800 dark:bg-blue-900 dark:text-blue-200",
} as const;

export type Tone = keyof typeof tones;

export function StatusTag({ tone, children, title }: { tone: Tone; children: React.ReactNode; title?: string }) {
  return (
    <span
      title={title}
      className={`inline-block whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ${tones[tone]}`}
    >
      {children}
    </span>
  );
}
