const tone = {
  success: "border-green-300 bg-green-50 text-green-800 dark:border-green-700 dark:bg-green-950 dark:text-green-200",
  error: "border-red-300 bg-red-50 text-red-800 dark:border-red-700 dark:bg-red-950 dark:text-red-200",
  info: "border-blue-300 bg-blue-50 text-blue-800 dark:border-blue-700 dark:bg-blue-950 dark:text-blue-200",
};

/** `id` + `hidden`: an empty banner the enhancement script fills and shows (data-copied-into). */
export function FlashBanner({
  type,
  message,
  id,
  hidden,
}: {
  type: keyof typeof tone;
  message: string;
  id?: string;
  hidden?: boolean;
}) {
  return (
    <div
      id={id}
      hidden={hidden}
      role={type === "error" ? "alert" : "status"}
      className={`mb-3 rounded border px-3 py-2 text-sm ${tone[type]}`}
    >
      {message}
    </div>
  );
}
