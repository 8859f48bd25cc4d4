// The counter page's QR reader: the bowl's claim screen shows its code as a QR
// code (BB1:bowl:game-award:CLASS:code). From the camera (a phone at the counter)
// or a photo, decoded by the browser's BarcodeDetector where it has one, else by
// jsQR; the text goes into the code field and the form is sent, as a USB scanner does.
(function () {
  var me = document.getElementById("scan-js");
  var form = document.getElementById("check-form");
  var field = document.getElementById("id_code");
  var status = document.getElementById("qr-status");
  var video = document.getElementById("qr-video");
  var canvas = document.createElement("canvas");
  var ctx = canvas.getContext("2d", {willReadFrequently: true});
  var detector = null;
  if ("BarcodeDetector" in window) {
    try { detector = new window.BarcodeDetector({formats: ["qr_code"]}); } catch (e) { detector = null; }
  }

  function say(text) { status.hidden = false; status.textContent = text; }

  function found(text) {
    field.value = text;
    form.submit();
  }

  // -> a promise of the QR text in `source` (an image or the video), or null
  function decode(source, w, h) {
    canvas.width = w; canvas.height = h;
    ctx.drawImage(source, 0, 0, w, h);
    function byJsQR() {
      var img = ctx.getImageData(0, 0, w, h);
      var r = window.jsQR ? window.jsQR(img.data, w, h) : null;
      return r ? r.data : null;
    }
    if (!detector) return Promise.resolve(byJsQR());
    return detector.detect(canvas).then(function (codes) {
      return codes.length ? codes[0].rawValue : byJsQR();
    }, byJsQR);
  }

  document.getElementById("qr-file").addEventListener("change", function (ev) {
    var file = ev.target.files[0];
    if (!file) return;
    var img = new Image();
    img.onload = function () {
      var scale = Math.min(1, 1600 / Math.max(img.width, img.height));  // a phone's photo is large
      decode(img, Math.round(img.width * scale), Math.round(img.height * scale)).then(function (text) {
        URL.revokeObjectURL(img.src);
        if (text) found(text); else say(me.dataset.noQr);
      });
    };
    img.src = URL.createObjectURL(file);
  });

  document.getElementById("camera").addEventListener("click", function () {
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) { say(me.dataset.noCamera); return; }
    navigator.mediaDevices.getUserMedia({video: {facingMode: "environment"}, audio: false}).then(function (stream) {
      video.srcObject = stream;
      video.hidden = false;
      say(me.dataset.looking);
      video.play();
      function tick() {
        if (video.readyState < 2 || !video.videoWidth) { setTimeout(tick, 100); return; }
        decode(video, video.videoWidth, video.videoHeight).then(function (text) {
          if (text) {
            stream.getTracks().forEach(function (t) { t.stop(); });
            found(text);
          } else {
            setTimeout(tick, 150);
          }
        });
      }
      tick();
    }, function () { say(me.dataset.noCamera); });
  });
})();
