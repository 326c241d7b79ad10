// A tiny element builder: text always goes in as text, so player names and clues can never inject markup.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "class") el.className = value;
    else if (name in el && typeof value !== "string") el[name] = value;
    else el.setAttribute(name, value === true ? "" : value);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

// Replace a container's content, keeping focus (and the caret) on the element with the same id.
export function replace(container, ...children) {
  const active = document.activeElement;
  const focusId = active && container.contains(active) ? active.id : null;
  const caret = focusId && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null;
  container.replaceChildren();
  append(container, children);
  if (focusId) {
    const again = document.getElementById(focusId);
    if (again) {
      again.focus({ preventScroll: true });
      if (caret && again.setSelectionRange) {
        try {
          again.setSelectionRange(...caret);
        } catch {
          // Inputs without a caret (number) refuse it; focus is what matters.
        }
      }
    }
  }
}
