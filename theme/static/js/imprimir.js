// "Imprimir só o quadro de preços": prints one part of the page (the fare board of art. 52 § 3).
// Without JavaScript the button stays hidden and printing the page prints the board with the rest.
(function () {
  "use strict";
  window.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("button[data-imprimir]"), function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        document.body.setAttribute("data-imprimindo", button.getAttribute("data-imprimir"));
        window.print();
      });
    });
    window.addEventListener("afterprint", function () { document.body.removeAttribute("data-imprimindo"); });
  });
}());
