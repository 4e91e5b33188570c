// The two live pages (Settle a dispute in the browser, Try house rules): load the Python runtime from this site,
// then draw, edit and call Python. No rule is decided here: every verdict, rule text and check comes from
// canasta-ref's own functions through tools/docs_pages/live.py. Only these two pages load this file.
const RUNTIME = new URL("../runtime/", import.meta.url);
const $ = (id) => document.getElementById(id);
// Milestones in ms since the page began to load, for tools/bench_browser.py and the browser test.
const times = (window.crLiveTimes = {});

function status(text, done = false) {
  (times.steps ??= []).push([text, Math.round(performance.now())]);
  const box = $("cr-live-status");
  box.textContent = text;
  box.classList.toggle("cr-live-ready", done);
}

// Python runs in worker.js; each call is a message there and back, its answer JSON text (or plain text).
const worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
const pending = new Map();
let nextCall = 0;
let runtimeReady;
const ready = new Promise((resolve, reject) => { runtimeReady = { resolve, reject }; });

worker.onmessage = (event) => {
  const message = event.data;
  if (message.progress) {
    status(message.progress);
  } else if (message.ready !== undefined) {
    times.ready = performance.now();
    status(`Ready: the reference interpreter runs in this page (loaded in ${message.ready.toFixed(1)} s).`, true);
    runtimeReady.resolve();
  } else if (message.failed) {
    runtimeReady.reject(new Error(message.failed));
  } else {
    const call = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) call.reject(new Error(message.error));
    else call.resolve(message.result);
  }
};

const callText = (name, ...args) => new Promise((resolve, reject) => {
  nextCall += 1;
  pending.set(nextCall, { resolve, reject });
  worker.postMessage({ id: nextCall, name, args });
});
const call = async (name, ...args) => JSON.parse(await callText(name, ...args));

function download(name, text) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/x-yaml" }));
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}

function errorList(box, errors) {
  box.replaceChildren(...errors.map((message) => {
    const pre = document.createElement("pre");
    pre.className = "cr-live-error";
    pre.textContent = message;
    return pre;
  }));
}

function option(value, label) {
  const item = document.createElement("option");
  item.value = value;
  item.textContent = label;
  return item;
}

const encode = (text) => btoa(String.fromCharCode(...new TextEncoder().encode(text)))
  .replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
const decode = (text) => new TextDecoder().decode(
  Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0)));

function hashState() {
  return new URLSearchParams(location.hash.slice(1));
}

function setHash(params) {
  history.replaceState(null, "", `#${params.toString()}`);
}

// ------------------------------------------------------------------------------------------ settle a dispute
function chosenVariants() {
  return [...document.querySelectorAll("#cr-variants input:checked")].map((box) => box.value);
}

function drawVerdicts(answer) {
  const box = $("cr-verdicts");
  box.replaceChildren(...answer.lines.map((line) => {
    const row = document.createElement("div");
    row.className = `cr-verdict cr-verdict-${line.kind}`;
    row.textContent = line.text;
    return row;
  }));
}

async function settlePage() {
  const text = $("cr-scenario");
  const variants = (await call("variants_json")).variants;
  $("cr-variants").replaceChildren(...variants.map((v) => {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = v.id;
    label.append(box, ` ${v.name}`);
    return label;
  }));
  $("cr-example").append(...(await call("examples_json")).examples.map((id) => option(id, id)));

  const redraw = async () => {
    const answer = await call("draw_position", text.value, chosenVariants()[0] || "");
    if (answer.errors) {
      errorList($("cr-position"), answer.errors);
    } else {
      $("cr-position").innerHTML = answer.position;
    }
  };
  const settle = async () => {
    const started = performance.now();
    const answer = await call("settle", text.value, chosenVariants().join(","));
    const params = new URLSearchParams({ scenario: encode(text.value) });
    if (chosenVariants().length) params.set("variants", chosenVariants().join(","));
    setHash(params);
    if (answer.errors) {
      errorList($("cr-verdicts"), answer.errors);
      return;
    }
    $("cr-position").innerHTML = answer.position;
    drawVerdicts(answer);
    times.firstVerdict ??= performance.now();
    times.lastVerdictMs = performance.now() - started;
    times.verdicts = (times.verdicts || 0) + 1;
    $("cr-download").dataset.name = `${answer.id}.yaml`;
  };
  const loadExample = async (id) => {
    text.value = await callText("example_text", id);
    $("cr-example").value = id;
  };
  const fillParameters = async () => {
    const base = chosenVariants()[0] || "classic";
    const form = await call("house_form", base);
    $("cr-param-name").replaceChildren(...form.parameters.map((p) => option(p.name, p.name)));
    $("cr-param-name").onchange = () => {
      const chosen = form.parameters.find((p) => p.name === $("cr-param-name").value);
      $("cr-param-value").replaceChildren(
        option("null", "as the variant has it"),
        ...chosen.choices.map((c) => option(c.value, `${c.label} (${c.sources})`)));
    };
    $("cr-param-name").onchange();
  };

  const state = hashState();
  if (state.get("scenario")) text.value = decode(state.get("scenario"));
  else await loadExample(state.get("example") || "dispute-one-card-pile");
  for (const id of (state.get("variants") || "").split(",")) {
    const box = document.querySelector(`#cr-variants input[value="${CSS.escape(id)}"]`);
    if (box) box.checked = true;
  }
  await fillParameters();
  let typing = 0;
  text.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(redraw, 250);
  });
  $("cr-variants").addEventListener("change", async () => { await fillParameters(); await redraw(); });
  $("cr-example").addEventListener("change", async () => { await loadExample($("cr-example").value); await redraw(); });
  $("cr-param-set").addEventListener("click", async () => {
    const answer = await call("with_parameter", text.value, $("cr-param-name").value, $("cr-param-value").value);
    if (answer.errors) errorList($("cr-verdicts"), answer.errors);
    else { text.value = answer.text; await redraw(); }
  });
  $("cr-settle-button").addEventListener("click", settle);
  $("cr-download").addEventListener("click", () => download($("cr-download").dataset.name || "scenario.yaml", text.value));
  $("cr-live").hidden = false;
  await settle();
}

// ------------------------------------------------------------------------------------------ try house rules
function houseValues() {
  const values = {};
  for (const select of document.querySelectorAll("#cr-house-form select")) {
    if (select.value !== select.dataset.base) values[select.name] = JSON.parse(select.value);
  }
  return values;
}

async function drawHouseForm(base, values) {
  const form = await call("house_form", base);
  $("cr-house-form").replaceChildren(...form.parameters.map((p) => {
    const row = document.createElement("label");
    row.className = "cr-house-parameter";
    const select = document.createElement("select");
    select.name = p.name;
    select.dataset.base = p.value;
    select.append(...p.choices.map((c) => option(c.value, `${c.label}: ${c.sources}`)));
    if (!p.choices.some((c) => c.value === p.value)) select.prepend(option(p.value, `${p.value} (as ${form.name} has it)`));
    select.value = p.name in values ? JSON.stringify(values[p.name]) : p.value;
    const name = document.createElement("code");
    name.textContent = p.name;
    row.append(name, ` ${p.doc} `, select);
    return row;
  }));
}

async function playHand(base, values) {
  const hand = await call("play_hand", base, JSON.stringify(values));
  if (hand.errors) {
    errorList($("cr-house-errors"), hand.errors);
    return;
  }
  const frames = [{ who: "", action: `dealt from seed ${hand.seed}`, table: hand.start }, ...hand.moves];
  const slider = $("cr-hand-move");
  slider.max = String(frames.length - 1);
  const show = (index) => {
    const frame = frames[index];
    $("cr-hand-table").innerHTML = frame.table;
    $("cr-hand-caption").textContent = index === 0
      ? `The deal (seed ${hand.seed}); ${hand.moves.length} moves follow.`
      : `Move ${index} of ${hand.moves.length}: ${frame.who} ${frame.action}`;
    slider.value = String(index);
  };
  slider.oninput = () => show(Number(slider.value));
  $("cr-hand-score").textContent = hand.score.join("\n");
  $("cr-hand").hidden = false;
  times.hands = (times.hands || 0) + 1;
  show(0);
  let index = 0;
  const timer = setInterval(() => {
    index += 1;
    if (index >= frames.length || Number(slider.value) !== index - 1) { clearInterval(timer); return; }
    show(index);
  }, 120);
}

async function housePage() {
  const base = $("cr-base");
  base.append(...(await call("variants_json")).variants.map((v) => option(v.id, v.name)));
  const state = hashState();
  base.value = state.get("base") || "classic";
  await drawHouseForm(base.value, JSON.parse(state.get("values") || "{}"));
  let latest = "";
  const write = async () => {
    const values = houseValues();
    setHash(new URLSearchParams({ base: base.value, values: JSON.stringify(values) }));
    const answer = await call("house_rules", base.value, JSON.stringify(values));
    latest = answer.yaml || "";
    $("cr-house-yaml").textContent = latest;
    errorList($("cr-house-errors"), answer.errors || []);
    $("cr-house-diff").textContent = answer.diff || "";
    $("cr-house-rulebook").textContent = answer.rulebook || "";
    times.houseRules = (times.houseRules || 0) + 1;
  };
  base.addEventListener("change", async () => { await drawHouseForm(base.value, {}); await write(); });
  $("cr-house-form").addEventListener("change", write);
  $("cr-house-download").addEventListener("click", () => download("our-table.yaml", latest));
  $("cr-house-play").addEventListener("click", () => playHand(base.value, houseValues()));
  $("cr-live").hidden = false;
  await write();
}

status("Starting the Python runtime: step 1");
ready.then(
  () => ($("cr-settle-button") ? settlePage() : housePage()),
  (error) => status(`The Python runtime could not be loaded: ${error.message}`),
);
