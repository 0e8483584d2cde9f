// google.script.run for a sidebar served by the playground: each call is POSTed to /api/run and runs as one
// 'sidebar' execution of the built bundle in the emulator. Arguments are copied as JSON, as Apps Script does.
// Installed before the page's own script (gas-client reads google.script.run when it is constructed).
(function () {
  var names = /*SERVER_FUNCTIONS*/ [];
  function makeRunner(onSuccess, onFailure, userObject) {
    var runner = {
      withSuccessHandler: function (f) {
        return makeRunner(f, onFailure, userObject);
      },
      withFailureHandler: function (f) {
        return makeRunner(onSuccess, f, userObject);
      },
      withUserObject: function (o) {
        return makeRunner(onSuccess, onFailure, o);
      },
      withLogger: function () {
        return runner;
      },
    };
    names.forEach(function (name) {
      runner[name] = function () {
        var args = Array.prototype.slice.call(arguments);
        fetch('/api/run', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: name, args: args }),
        })
          .then(function (response) {
            return response.json();
          })
          .then(function (result) {
            if (window.parent && window.parent.postMessage) window.parent.postMessage({ playground: 'changed' }, '*');
            if (result.ok) {
              if (onSuccess) onSuccess(result.value, userObject);
            } else if (onFailure) {
              var error = new Error(result.message);
              error.name = 'ScriptError';
              onFailure(error, userObject);
            }
          })
          .catch(function (error) {
            if (onFailure) onFailure(error, userObject);
          });
      };
    });
    return runner;
  }
  window.google = {
    script: {
      run: makeRunner(),
      host: {
        close: function () {
          fetch('/api/close-sidebar', { method: 'POST' });
        },
        setHeight: function () {},
        setWidth: function () {},
        editor: { focus: function () {} },
      },
    },
  };
})();
