//! Conversions between Python values and the crates' types, with errors
//! that name the argument.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyList, PyString,
};

/// The Python type name of `obj`, for messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".to_string())
}

/// `TypeError: {name} must be {what}, not {type}`.
pub(crate) fn type_error(
    name: &str,
    what: &str,
    obj: &Bound<'_, PyAny>,
) -> PyErr {
    PyTypeError::new_err(format!(
        "{name} must be {what}, not {}",
        type_name(obj)
    ))
}

/// A `str` argument as UTF-8. Lone surrogates cannot be encoded: a
/// `ValueError` says so rather than guessing bytes.
pub(crate) fn text(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    let s =
        obj.cast::<PyString>().map_err(|_| type_error(name, "a str", obj))?;
    text_of(s, name)
}

fn text_of(s: &Bound<'_, PyString>, name: &str) -> PyResult<String> {
    match s.to_cow() {
        Ok(c) => Ok(c.into_owned()),
        Err(_) => Err(PyValueError::new_err(format!(
            "{name} is not valid Unicode (it has a lone surrogate), so it \
             has no UTF-8 bytes to match"
        ))),
    }
}

/// An optional `str` argument (`None` allowed).
pub(crate) fn opt_text(
    obj: Option<&Bound<'_, PyAny>>,
    name: &str,
) -> PyResult<Option<String>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => text(o, name).map(Some),
    }
}

/// A body: `bytes`, `bytearray` or `memoryview` as is, or a `str` as
/// UTF-8.
pub(crate) fn body(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<u8>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(b.to_vec());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return text_of(s, name).map(String::into_bytes);
    }
    if type_name(obj) == "memoryview" {
        let bytes = obj.call_method0("tobytes")?;
        if let Ok(b) = bytes.cast::<PyBytes>() {
            return Ok(b.as_bytes().to_vec());
        }
    }
    Err(type_error(name, "bytes or str", obj))
}

/// One crawler name or several: a `str` is one name (not a sequence of
/// one-letter names); otherwise an iterable of `str`.
pub(crate) fn agents(
    obj: &Bound<'_, PyAny>,
    name: &str,
) -> PyResult<Vec<String>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(vec![text_of(s, name)?]);
    }
    if obj.is_none() || is_bytes_like(obj) {
        return Err(type_error(name, "a str or an iterable of str", obj));
    }
    each_text(obj, name, "a str or an iterable of str")
}

/// Returns true for `bytes`, `bytearray` and `memoryview`: iterables of
/// ints, never of `str`, refused as a whole with a clear error.
fn is_bytes_like(obj: &Bound<'_, PyAny>) -> bool {
    obj.cast::<PyBytes>().is_ok()
        || obj.cast::<PyByteArray>().is_ok()
        || obj.cast::<pyo3::types::PyMemoryView>().is_ok()
}

/// An iterable of `str`, such as the URLs of a batch check.
pub(crate) fn texts(
    obj: &Bound<'_, PyAny>,
    name: &str,
) -> PyResult<Vec<String>> {
    if obj.cast::<PyString>().is_ok() || is_bytes_like(obj) {
        return Err(type_error(name, "an iterable of str", obj));
    }
    each_text(obj, name, "an iterable of str")
}

/// The items of the iterable `obj`, each a `str`; `expected` says what
/// `obj` should have been when it is not iterable.
fn each_text(
    obj: &Bound<'_, PyAny>,
    name: &str,
    expected: &str,
) -> PyResult<Vec<String>> {
    let iter = obj.try_iter().map_err(|_| type_error(name, expected, obj))?;
    let mut out = Vec::with_capacity(obj.len().unwrap_or(0));
    for item in iter {
        let item = item?;
        let s = item.cast::<PyString>().map_err(|_| {
            type_error(&format!("each item of {name}"), "a str", &item)
        })?;
        out.push(text_of(s, name)?);
    }
    Ok(out)
}

/// Calls `f` with the URLs of an iterable of `str`, with the GIL
/// released.
///
/// The fast path joins the strings with a newline and encodes them once
/// (two calls into Python, one buffer, no allocation per URL) and splits
/// the bytes again; when that is not exact (an item that is not a `str`,
/// has a lone surrogate or contains a newline itself) each item is taken
/// on its own, which also gives the error that names the argument.
pub(crate) fn with_texts<R: Send>(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    name: &str,
    f: impl FnOnce(&[&str]) -> R + Send,
) -> PyResult<R> {
    if obj.cast::<PyString>().is_ok() || is_bytes_like(obj) {
        return Err(type_error(name, "an iterable of str", obj));
    }
    let list = match obj.cast::<PyList>() {
        Ok(l) => l.clone(),
        Err(_) => {
            let iter = obj
                .try_iter()
                .map_err(|_| type_error(name, "an iterable of str", obj))?;
            let list = PyList::empty(py);
            for item in iter {
                list.append(item?)?;
            }
            list
        }
    };
    let n = list.len();
    let joined = PyString::new(py, "\n")
        .call_method1("join", (&list,))
        .and_then(|s| s.call_method1("encode", ("utf-8",)));
    if let Ok(joined) = joined {
        if let Ok(bytes) = joined.cast::<PyBytes>() {
            if let Ok(text) = std::str::from_utf8(bytes.as_bytes()) {
                let parts: Vec<&str> = text.split('\n').collect();
                if n > 0 && parts.len() == n {
                    return Ok(py.detach(|| f(&parts)));
                }
            }
        }
    }
    let owned = texts(list.as_any(), name)?;
    let parts = slices(&owned);
    Ok(py.detach(|| f(&parts)))
}

/// The names as string slices.
pub(crate) fn slices(names: &[String]) -> Vec<&str> {
    names.iter().map(String::as_str).collect()
}

/// A JSON value as plain Python objects: `dict`, `list`, `str`, `int`,
/// `float`, `bool` and `None`, the way `json.loads` would make them.
pub(crate) fn json_to_py<'py>(
    py: Python<'py>,
    value: &serde_json::Value,
) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, json_to_py(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

/// A value serialized with serde to JSON, as an internal error if that
/// fails (it does not for the crates' types).
pub(crate) fn to_json<T: serde::Serialize>(
    value: &T,
) -> PyResult<serde_json::Value> {
    serde_json::to_value(value)
        .map_err(|e| PyValueError::new_err(format!("cannot serialize: {e}")))
}
