// @ts-check
/**
 * The browser's validation bubble in the server's words (docs/decisions/043). A control keeps
 * its HTML constraints (required, minlength, min…), so the browser still refuses a bad value
 * before posting; this replaces only the wording, which the browser writes in its own language
 * ("Please fill out this field."). The messages come from the server, rendered as JSON:
 *
 *   [data-validity-messages]       on a control: {"valueMissing": "请输入兑换码！", …}
 *   form[data-validity-messages]   on a form: the same by field name, {"key": {"valueMissing": …}}
 *
 * The keys are ValidityState flags. A flag with no message keeps the browser's wording.
 */
(() => {
  const FLAGS = /** @type {const} */ ([
    "valueMissing",
    "tooShort",
    "tooLong",
    "rangeUnderflow",
    "rangeOverflow",
    "stepMismatch",
    "patternMismatch",
    "typeMismatch",
    "badInput",
  ]);

  /** @param {string | undefined} json @returns {Record<string, any>} */
  const parse = (json) => {
    try {
      return json ? JSON.parse(json) : {};
    } catch {
      return {};
    }
  };

  /** @param {HTMLInputElement} control @returns {Record<string, string>} */
  function messagesFor(control) {
    if (control.dataset.validityMessages) return parse(control.dataset.validityMessages);
    const form = control.form;
    return form ? (parse(form.dataset.validityMessages)[control.name] ?? {}) : {};
  }

  // `invalid` does not bubble: caught on its way down. It fires before the bubble is drawn, so
  // the message set here is the one shown.
  document.addEventListener(
    "invalid",
    (event) => {
      const control = /** @type {HTMLInputElement} */ (event.target);
      if (typeof control.setCustomValidity !== "function") return;
      control.setCustomValidity("");
      const messages = messagesFor(control);
      const flag = FLAGS.find((name) => control.validity[name]);
      if (flag && messages[flag]) control.setCustomValidity(messages[flag]);
    },
    true,
  );

  // A message set above would keep the control invalid whatever is typed next: it goes with the
  // first change, and the browser's own check decides again at the next submit.
  /** @param {Event} event */
  const clear = (event) => {
    const control = /** @type {HTMLInputElement} */ (event.target);
    if (control.validity?.customError) control.setCustomValidity("");
  };
  document.addEventListener("input", clear);
  document.addEventListener("change", clear);
})();
