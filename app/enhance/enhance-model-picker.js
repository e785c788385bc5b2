// @ts-check
/**
 * The model picker's search box and live counts (app/components/ModelPicker.tsx,
 * docs/decisions/043). The picker is a plain list of checkboxes in <details> groups and works
 * without this; here typing filters it in place (a group with a match opens, one without hides)
 * and each tick updates the "chosen" counts.
 *
 *   [data-model-picker]        the picker; [data-model-search] its search box
 *   details[data-model-group]  a group; [data-group-count] its "chosen/total"
 *   label[data-model="name"]   one model; [data-picker-count] the picker's total
 */
(() => {
  /** @param {Element} picker */
  function recount(picker) {
    let chosen = 0;
    let total = 0;
    for (const group of picker.querySelectorAll("details[data-model-group]")) {
      const boxes = /** @type {NodeListOf<HTMLInputElement>} */ (group.querySelectorAll("input[type=checkbox]"));
      const ticked = [...boxes].filter((box) => box.checked).length;
      chosen += ticked;
      total += boxes.length;
      const count = group.querySelector("[data-group-count]");
      if (count) count.textContent = `${ticked}/${boxes.length}`;
    }
    const count = picker.querySelector("[data-picker-count]");
    // The words come from the page, in the reader's language.
    const template = count instanceof HTMLElement ? count.dataset.countTemplate : undefined;
    if (count && template)
      count.textContent = template.replace("{chosen}", String(chosen)).replace("{total}", String(total));
  }

  /** @param {HTMLInputElement} search */
  function filter(search) {
    const picker = search.closest("[data-model-picker]");
    if (!picker) return;
    const query = search.value.trim().toLowerCase();
    for (const group of /** @type {NodeListOf<HTMLDetailsElement>} */ (
      picker.querySelectorAll("details[data-model-group]")
    )) {
      // How the group was before the search started.
      if (group.dataset.wasOpen === undefined) group.dataset.wasOpen = group.open ? "1" : "";
      let matches = 0;
      for (const label of /** @type {NodeListOf<HTMLElement>} */ (group.querySelectorAll("label[data-model]"))) {
        const match = (label.dataset.model ?? "").toLowerCase().includes(query);
        label.hidden = !match;
        if (match) matches += 1;
      }
      group.hidden = matches === 0;
      // Cleared: back as it was, and open where a model was chosen meanwhile, so it shows.
      group.open = query ? matches > 0 : group.dataset.wasOpen === "1" || group.querySelector("input:checked") !== null;
      if (!query) delete group.dataset.wasOpen;
    }
  }

  document.addEventListener("input", (event) => {
    const target = event.target;
    if (target instanceof HTMLInputElement && target.dataset.modelSearch !== undefined) filter(target);
  });

  document.addEventListener("change", (event) => {
    const target = event.target;
    const picker =
      target instanceof HTMLInputElement && target.type === "checkbox" ? target.closest("[data-model-picker]") : null;
    if (picker) recount(picker);
  });

  // Enter in the search box would submit the whole form: it only searches.
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (event.key === "Enter" && target instanceof HTMLInputElement && target.dataset.modelSearch !== undefined)
      event.preventDefault();
  });
})();
