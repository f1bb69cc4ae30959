/* The case viewer: steps through a corpus case (buttons, arrow keys, Home/End, #step-N). */
(function () {
  "use strict";

  function text(root, selector, value) {
    root.querySelector(selector).textContent = value;
  }

  function setUp(root) {
    var data = JSON.parse(root.querySelector(".copa-viewer-data").textContent);
    var frames = data.frames;
    var last = frames.length - 1;
    var at = 0;

    function pictureFor(i) {
      for (var j = i; j >= 0; j--) {
        if (frames[j].picture !== null) { return j; }
      }
      return null;
    }

    function show(i, updateHash) {
      at = Math.max(0, Math.min(last, i));
      var frame = frames[at];
      text(root, ".copa-viewer-step", "step " + frame.step + " of " + frames[last].step);
      var shown = pictureFor(at);
      var box = root.querySelector(".copa-viewer-picture");
      box.innerHTML = shown === null ? "" : data.pictures[frames[shown].picture];
      text(root, ".copa-viewer-note", shown !== null && shown !== at
        ? "The picture is step " + frames[shown].step + "'s (this long trace is pictured every "
          + data.every + " steps); the facts below are step " + frame.step + "'s."
        : "");
      text(root, ".copa-viewer-words", frame.words || "none: the starting position");
      text(root, ".copa-viewer-json", frame.action || "null");
      text(root, ".copa-viewer-refused", frame.refused
        ? frame.refused_words + " — " + frame.refused + (frame.rule
          ? " (refused under " + frame.rule + ")" : " (refused as malformed, under no rule)")
        : "nothing");
      text(root, ".copa-viewer-fires", frame.fires && frame.fires.length
        ? frame.fires.join(", ") : "none of the case's rules");
      text(root, ".copa-viewer-mover", frame.mover);
      text(root, ".copa-viewer-outcome", frame.outcome);
      var shownList = frame.chance || frame.legal;
      text(root, ".copa-viewer-count", frame.chance
        ? "chance: " + (frame.chance.length > 1 ? frame.chance.length + " outcomes, with their "
          + "probabilities" : frame.chance[0])
        : frame.legal.length + " legal action" + (frame.legal.length === 1 ? "" : "s"));
      var list = root.querySelector(".copa-viewer-legal");
      list.textContent = "";
      shownList.forEach(function (action) {
        var item = document.createElement("li");
        var code = document.createElement("code");
        code.textContent = action;
        item.appendChild(code);
        list.appendChild(item);
      });
      root.querySelector('[data-go="back"]').disabled = at === 0;
      root.querySelector('[data-go="first"]').disabled = at === 0;
      root.querySelector('[data-go="forward"]').disabled = at === last;
      root.querySelector('[data-go="last"]').disabled = at === last;
      if (updateHash && window.history && window.history.replaceState) {
        window.history.replaceState(null, "", "#step-" + frame.step);
      }
    }

    function go(where) {
      var next = { first: 0, back: at - 1, forward: at + 1, last: last }[where];
      if (next !== undefined) { show(next, true); }
    }

    root.querySelectorAll("[data-go]").forEach(function (button) {
      button.addEventListener("click", function () { go(button.getAttribute("data-go")); });
    });
    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) { return; }
      var target = event.target;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) { return; }
      var keys = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
      if (keys[event.key]) { event.preventDefault(); go(keys[event.key]); }
    });

    function fromHash() {
      var match = /^#step-(\d+)$/.exec(window.location.hash);
      var step = match ? parseInt(match[1], 10) : 0;
      var index = frames.findIndex(function (f) { return f.step === step; });
      show(index < 0 ? 0 : index, false);
    }
    window.addEventListener("hashchange", fromHash);
    fromHash();
  }

  function start() {
    document.querySelectorAll(".copa-viewer").forEach(setUp);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
