//! `Vec<(K, V)>` as a JSON object `{K: V, …}` in the vector's order: the output keys
//! policies by name (`"policies": {"smd": {…}, …}`) and keeps the order they ran in,
//! which a map type would sort.

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use std::marker::PhantomData;

/// Writes the pairs as one object.
pub fn serialize<S, K, V>(pairs: &[(K, V)], s: S) -> Result<S::Ok, S::Error>
where
    S: Serializer,
    K: Serialize,
    V: Serialize,
{
    s.collect_map(pairs.iter().map(|(k, v)| (k, v)))
}

/// Reads one object into pairs, in the text's order.
pub fn deserialize<'de, D, K, V>(d: D) -> Result<Vec<(K, V)>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de>,
    V: Deserialize<'de>,
{
    struct Pairs<K, V>(PhantomData<(K, V)>);
    impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for Pairs<K, V> {
        type Value = Vec<(K, V)>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object keyed by policy name")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0));
            while let Some(pair) = map.next_entry()? {
                out.push(pair);
            }
            Ok(out)
        }
    }
    d.deserialize_map(Pairs(PhantomData))
}
