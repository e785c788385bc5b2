// @ts-check
/**
 * The playground's chat, streamed in place (docs/decisions/032). Loaded by the playground page
 * only, after its form. Without this script the form posts to the page and the server answers
 * with the whole conversation; with it, the same form is posted to /pg/chat/completions as JSON
 * with `stream: true` (the session and New-Api-User, as the reference's console does) and the
 * reply is written into the page as its pieces arrive. Plain JavaScript, no framework: Vite
 * copies it to a content-hashed asset and the build minifies it, like enhance.js.
 *
 *   form[data-playground][data-user-id]   the chat form, and whose session posts it
 *   [data-playground-messages]            the conversation; data-user-class / data-assistant-class
 *                                         are the classes of a new bubble of each role
 *   [data-playground-stop]                shown while a reply streams; stops it
 *   #pg-error                             the error banner
 *   input[name=history]                   the conversation as JSON, kept current so the plain
 *                                         post carries it too
 *   form[data-empty-message]              what to say when the message is empty (the page's language)
 *   form[data-ready]                      set once this script has the form
 */
(() => {
  const form = document.querySelector("form[data-playground]");
  if (!(form instanceof HTMLFormElement)) return;
  const list = /** @type {HTMLElement} */ (form.querySelector("[data-playground-messages]"));
  const stopButton = /** @type {HTMLButtonElement} */ (form.querySelector("[data-playground-stop]"));
  const banner = /** @type {HTMLElement} */ (document.getElementById("pg-error"));
  const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
  const sendButton = /** @type {HTMLButtonElement} */ (form.querySelector('button[value="send"]'));
  const userId = form.dataset.userId ?? "";
  const emptyMessage = form.dataset.emptyMessage || "请输入消息";

  /** @typedef {{ role: "user" | "assistant", content: string }} Message */
  /** @type {Message[]} */
  let history = [];
  try {
    history = JSON.parse(field("history").value || "[]");
  } catch {}
  /** The reply on its way, if any: one at a time. @type {AbortController | null} */
  let running = null;

  const keepHistory = () => (field("history").value = JSON.stringify(history));

  /** @param {string} message */
  function showError(message) {
    banner.textContent = message;
    banner.hidden = !message;
  }

  /** A bubble at the end of the conversation. @param {Message["role"]} role @param {string} text @param {string} state */
  function bubble(role, text, state) {
    const item = document.createElement("li");
    item.className = list.dataset[`${role}Class`] ?? "";
    item.dataset.role = role;
    item.dataset.state = state;
    item.textContent = text;
    list.append(item);
    item.scrollIntoView({ block: "nearest" });
    return item;
  }

  /** @param {boolean} busy */
  function setBusy(busy) {
    stopButton.hidden = !busy;
    sendButton.disabled = busy;
  }

  /**
   * An SSE event's data: its `data:` lines joined (the field may span several lines).
   * @param {string} event
   */
  const eventData = (event) =>
    event
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5))
      .join("\n");

  /**
   * Posts the chat and calls `onText` with each piece of the reply's text as it arrives. Throws
   * with the message of an OpenAI-shaped error, whether it came as the answer or inside the stream.
   * @param {Record<string, unknown>} body @param {AbortSignal} signal @param {(text: string) => void} onText
   */
  async function streamReply(body, signal, onText) {
    const response = await fetch("/pg/chat/completions", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "New-Api-User": userId },
      body: JSON.stringify(body),
      signal,
    });
    if (!response.ok || !response.body) {
      const failure = await response.json().catch(() => null);
      throw new Error(failure?.error?.message || failure?.message || `HTTP ${response.status}`);
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffered = "";
    for (;;) {
      const { done, value } = await reader.read();
      buffered += decoder.decode(value, { stream: !done }).replace(/\r\n?/g, "\n");
      const events = buffered.split("\n\n");
      // The last piece may be an event cut in half: it waits for the rest (unless this is the end).
      buffered = done ? "" : (events.pop() ?? "");
      for (const event of events) {
        const data = eventData(event);
        if (!data || data === "[DONE]") continue;
        const chunk = JSON.parse(data);
        if (chunk.error) throw new Error(chunk.error.message || "upstream error");
        const text = chunk.choices?.[0]?.delta?.content;
        if (typeof text === "string" && text) onText(text);
      }
      if (done) return;
    }
  }

  async function send() {
    const asked = field("message").value.trim();
    if (!asked) return showError(emptyMessage);
    showError("");
    const system = field("system").value.trim();
    const maxTokens = Number(field("max_tokens").value) || 0;
    const temperature = Number(field("temperature").value) || 0;
    const messages = [
      ...(system ? [{ role: "system", content: system }] : []),
      ...history,
      { role: "user", content: asked },
    ];
    history.push({ role: "user", content: asked });
    keepHistory();
    bubble("user", asked, "complete");
    const reply = bubble("assistant", "…", "loading");
    field("message").value = "";
    const controller = new AbortController();
    running = controller;
    setBusy(true);
    let content = "";
    try {
      await streamReply(
        {
          group: field("group").value,
          model: field("model").value,
          messages,
          stream: true,
          ...(maxTokens > 0 ? { max_tokens: maxTokens } : {}),
          ...(temperature > 0 ? { temperature } : {}),
        },
        controller.signal,
        (text) => {
          content += text;
          reply.textContent = content;
          reply.dataset.state = "incomplete";
          reply.scrollIntoView({ block: "nearest" });
        },
      );
      finish();
    } catch (failure) {
      if (controller.signal.aborted) {
        // Stopped: what arrived is the reply; a reply stopped before its first word is dropped.
        if (content) finish();
        else reply.remove();
      } else {
        reply.textContent = content;
        reply.dataset.state = "error";
        showError(failure instanceof Error ? failure.message : String(failure));
      }
    } finally {
      if (running === controller) {
        running = null;
        setBusy(false);
      }
    }

    function finish() {
      // Cleared while it streamed: the reply is no longer part of any conversation.
      if (!reply.isConnected) return;
      reply.textContent = content;
      reply.dataset.state = "complete";
      history.push({ role: "assistant", content });
      keepHistory();
    }
  }

  // On the form itself, so this runs before any document-level submit listener and the post
  // those would make (or mark as pending) never starts.
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const submitter = /** @type {HTMLButtonElement | null} */ (event.submitter);
    if (submitter?.value === "clear") {
      running?.abort();
      running = null;
      setBusy(false);
      history = [];
      keepHistory();
      list.replaceChildren();
      showError("");
      return;
    }
    if (!running) void send();
  });
  stopButton.addEventListener("click", () => running?.abort());
  // From here a send streams (a press before this posted the plain form): tests wait for it.
  form.dataset.ready = "";
})();
