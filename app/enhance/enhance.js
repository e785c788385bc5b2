// @ts-check
/**
 * The console's main script on light pages (docs/decisions/032; its siblings enhance-*.js hold
 * later behaviours, decision 043): a few small behaviours, each
 * switched on by a data attribute on server-rendered HTML. Every one of them is an extra: the
 * element it enhances is a working form, link or <details> without it. Plain JavaScript, no
 * framework and no build step (Vite copies it to a content-hashed asset cached for a year);
 * `// @ts-check` lets tsc check it like the rest of the code.
 *
 *   data-js-only            rendered `hidden`; shown here (a button that needs this script)
 *   data-js-hidden          hidden here (a button the script presses itself)
 *   select[data-submit-on-change="#button"]  a new choice presses that submit button
 *   data-copy="text"        a click copies the text
 *   data-copy-from="#id"    a click copies that field's value (or element's text)
 *   data-copy-checked="sel" a click copies the values of the checked boxes matching sel, joined by ","
 *   form[data-copy-reply="sel"]  the form is posted in the background and the text of sel in the
 *                           page that comes back is copied (the same page shows it without JS)
 *   data-copied-text        what the control says once copied ("{text}" is the copied text);
 *   data-copied-into="#id"  … and where to say it (default: the control's own text, for 2 s)
 *   data-close-details      a click closes the enclosing <details>
 *   details[data-dismiss]   closes on a click outside it or on Escape
 *   data-disables="#id"     a checkbox that disables that field while checked
 *   data-select-all="name"  a checkbox that checks or clears every checkbox named name
 *   data-refresh-ms="2000"  an element with an id, fetched again from this address every so
 *                           often and swapped in, for as long as the new copy keeps the attribute
 *   data-busy-label="…"     what a submit button says while its post is on the way
 *   data-countdown="30"     a button disabled for that many seconds, its label from data-countdown-label
 *   form[data-theme-toggle] the theme switch applied in place (the post still sets the cookie)
 *   (the time-zone cookie, the ?index marker and Telegram's widget: enhance-page.js)
 */
(() => {
  const doc = document;
  const html = doc.documentElement;
  // Words the script shows come from the page, in the reader's language.
  const COPIED = html.dataset.copiedText || "已复制到剪贴板！";

  /**
   * A selector from an attribute that is not valid (a React id with colons, say) finds nothing
   * instead of stopping every behaviour after it.
   * @param {string} selector @param {ParentNode} [scope] @returns {HTMLElement[]}
   */
  const all = (selector, scope = doc) => {
    try {
      return /** @type {HTMLElement[]} */ ([...scope.querySelectorAll(selector)]);
    } catch {
      console.warn("enhance: bad selector", selector);
      return [];
    }
  };

  /** @param {ParentNode} scope */
  function reveal(scope) {
    for (const el of all("[data-js-only]", scope)) el.hidden = false;
    for (const el of all("[data-js-hidden]", scope)) el.hidden = true;
    for (const el of all("[data-countdown]", scope)) countdown(/** @type {HTMLButtonElement} */ (el));
    for (const box of all("input[data-disables]", scope)) applyDisables(/** @type {HTMLInputElement} */ (box));
  }

  /**
   * The clipboard API exists only on secure origins; an admin on http://10.0.0.5 still gets a
   * copy through a hidden textarea and execCommand.
   * @param {string} text @returns {Promise<boolean>}
   */
  async function copyText(text) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      const area = doc.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.cssText = "position:fixed;opacity:0;top:0;left:0";
      doc.body.appendChild(area);
      area.select();
      let done = false;
      try {
        done = doc.execCommand("copy");
      } catch {
        done = false;
      }
      area.remove();
      return done;
    }
  }

  /** @param {HTMLElement} control @param {string} text */
  function sayCopied(control, text) {
    const message = (control.dataset.copiedText ?? COPIED).replace("{text}", text);
    const into = control.dataset.copiedInto ? doc.querySelector(control.dataset.copiedInto) : null;
    if (into instanceof HTMLElement) {
      into.textContent = message;
      into.hidden = false;
      return;
    }
    const label = control.dataset.label ?? control.textContent ?? "";
    control.dataset.label = label;
    control.textContent = message;
    window.setTimeout(() => (control.textContent = label), 2000);
  }

  /** What a field holds, or an element's text. @param {Element | null} el */
  const valueOf = (el) =>
    el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value : (el?.textContent ?? "");

  /**
   * A page of this site fetched and parsed; null when it answered with an error. Bounded: a
   * request that hangs is given up after 10 s like a failed one.
   * @param {string} url @param {RequestInit} [init] @returns {Promise<Document | null>}
   */
  async function fetchPage(url, init) {
    const reply = await fetch(url, { credentials: "same-origin", signal: AbortSignal.timeout(10_000), ...init });
    return reply.ok ? new DOMParser().parseFromString(await reply.text(), "text/html") : null;
  }

  /** @param {HTMLElement} control @param {string} text @param {() => void} [orElse] */
  async function copyAndSay(control, text, orElse) {
    if (await copyText(text)) sayCopied(control, text);
    else orElse?.();
  }

  doc.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    for (const open of all("details[open][data-dismiss]")) if (!open.contains(target)) open.removeAttribute("open");
    const copy = /** @type {HTMLElement | null} */ (target.closest("[data-copy],[data-copy-from],[data-copy-checked]"));
    if (copy) {
      const { copy: text, copyFrom, copyChecked } = copy.dataset;
      if (copyChecked !== undefined) {
        const values = all(copyChecked)
          .filter((box) => /** @type {HTMLInputElement} */ (box).checked)
          .map((box) => /** @type {HTMLInputElement} */ (box).value);
        // Nothing chosen: the form goes to the server, which says what is missing.
        if (values.length === 0) return;
        event.preventDefault();
        const form = /** @type {HTMLButtonElement} */ (copy).form;
        void copyAndSay(copy, values.join(","), () => form?.requestSubmit(/** @type {HTMLButtonElement} */ (copy)));
        return;
      }
      event.preventDefault();
      void copyAndSay(copy, text ?? valueOf(doc.querySelector(copyFrom ?? "")));
      return;
    }
    const closer = target.closest("[data-close-details]");
    if (closer) closer.closest("details")?.removeAttribute("open");
  });

  doc.addEventListener("keydown", (event) => {
    if (event.key === "Escape") for (const open of all("details[open][data-dismiss]")) open.removeAttribute("open");
  });

  doc.addEventListener("submit", (event) => {
    // Taken already (the playground's own React forms).
    if (event.defaultPrevented) return;
    const form = /** @type {HTMLFormElement} */ (event.target);
    const submitter = /** @type {HTMLElement | null} */ (event.submitter);
    if (form.dataset.copyReply) {
      event.preventDefault();
      void copyReply(form, form.dataset.copyReply, submitter);
    } else if (form.dataset.themeToggle !== undefined) {
      event.preventDefault();
      void toggleTheme(form);
    } else if (form.method === "post" && !form.target) {
      // A second press while the first post is on its way would post twice: one at a time. The
      // mark goes after 10 s in case the answer was a download (the page stays) or never came.
      if (form.dataset.posting) return event.preventDefault();
      form.dataset.posting = "1";
      if (submitter?.dataset.busyLabel) {
        submitter.dataset.label = submitter.textContent ?? "";
        submitter.textContent = submitter.dataset.busyLabel;
      }
      window.setTimeout(() => settle(form), 10_000);
    }
  });

  /** @param {HTMLElement} form */
  function settle(form) {
    delete form.dataset.posting;
    for (const button of all("[data-busy-label][data-label]", form)) button.textContent = button.dataset.label ?? "";
  }

  // Back to a page kept in the browser's cache: its forms can be posted again.
  window.addEventListener("pageshow", () => {
    for (const form of all("form[data-posting]")) settle(form);
  });

  /**
   * Posts the form as the browser would and copies what the answer shows; if anything goes
   * wrong the form is submitted for real, so the person sees the page that shows it.
   * @param {HTMLFormElement} form @param {string} selector @param {HTMLElement | null} submitter
   */
  async function copyReply(form, selector, submitter) {
    const fallBack = () => {
      delete form.dataset.copyReply;
      form.requestSubmit(/** @type {HTMLButtonElement | null} */ (submitter));
    };
    try {
      const page = await fetchPage(form.action, { method: "POST", body: new FormData(form, submitter) });
      const text = page ? valueOf(page.querySelector(selector)) : "";
      if (!text) return fallBack();
      await copyAndSay(submitter ?? form, text, fallBack);
    } catch {
      fallBack();
    }
  }

  /** @param {HTMLFormElement} form */
  async function toggleTheme(form) {
    const field = /** @type {HTMLInputElement | null} */ (form.elements.namedItem("theme"));
    if (!field) return form.submit();
    const next = field.value;
    const body = new URLSearchParams(/** @type {any} */ (new FormData(form)));
    try {
      // The answer is a redirect back here; its Set-Cookie is all that is needed.
      await fetch(form.action, {
        method: "POST",
        body,
        redirect: "manual",
        credentials: "same-origin",
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      return form.submit();
    }
    html.classList.toggle("dark", next === "dark");
    field.value = next === "dark" ? "light" : "dark";
    const button = form.querySelector("button");
    const label = next === "dark" ? button?.dataset.labelDark : button?.dataset.labelLight;
    if (label) button?.setAttribute("aria-label", label);
  }

  /** @param {HTMLInputElement} box */
  function applyDisables(box) {
    for (const field of all(box.dataset.disables ?? "")) /** @type {HTMLInputElement} */ (field).disabled = box.checked;
  }

  doc.addEventListener("change", (event) => {
    const picked = event.target;
    if (picked instanceof HTMLSelectElement && picked.dataset.submitOnChange) {
      const button = /** @type {HTMLButtonElement | null} */ (doc.querySelector(picked.dataset.submitOnChange));
      if (button && picked.form) picked.form.requestSubmit(button);
      return;
    }
    const box = event.target;
    if (!(box instanceof HTMLInputElement)) return;
    if (box.dataset.disables) applyDisables(box);
    const group = box.dataset.selectAll;
    if (group)
      for (const other of all(`input[type=checkbox][name="${CSS.escape(group)}"]`))
        /** @type {HTMLInputElement} */ (other).checked = box.checked;
  });

  /** @param {HTMLButtonElement} button */
  function countdown(button) {
    let left = Number(button.dataset.countdown);
    if (!(left > 0)) return;
    const label = button.textContent ?? "";
    const template = button.dataset.countdownLabel ?? "{n}";
    delete button.dataset.countdown;
    const tick = () => {
      if (left <= 0) {
        button.disabled = false;
        button.textContent = label;
        return;
      }
      button.disabled = true;
      button.textContent = template.replace("{n}", String(left));
      left -= 1;
      window.setTimeout(tick, 1000);
    };
    tick();
  }

  /** Live progress: the element is fetched again while the server still marks it running. */
  function refreshLoop() {
    for (const el of all("[data-refresh-ms][id]")) {
      const every = Math.max(500, Number(el.dataset.refreshMs) || 2000);
      const id = el.id;
      const step = async () => {
        const current = doc.getElementById(id);
        if (!current?.hasAttribute("data-refresh-ms")) return;
        if (doc.visibilityState === "visible") {
          try {
            const fresh = (await fetchPage(location.href))?.getElementById(id);
            if (fresh) {
              // Whatever the person had opened stays open across the swap.
              for (const open of all("details[open][id]", current))
                fresh.querySelector(`#${CSS.escape(open.id)}`)?.setAttribute("open", "");
              current.replaceWith(doc.importNode(fresh, true));
              const swapped = doc.getElementById(id);
              if (swapped) reveal(swapped);
            }
          } catch {
            // A failed poll is retried on the next tick; the page itself is still correct.
          }
        }
        window.setTimeout(step, every);
      };
      window.setTimeout(step, every);
    }
  }

  reveal(doc);
  refreshLoop();
  // Ready: what a test waits for before it acts faster than any person could.
  html.dataset.enhanced = "";
})();
