//===- CorpusCase.cpp - The case.json of a kernel corpus case -------------===//

#include "CorpusCase.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <limits>

using namespace refcpu;

namespace {
/// Maps the JSON document onto CorpusCase; errors name the file and the path
/// of the offending value (e.g. "params[2].value").
class CaseParser {
public:
  explicit CaseParser(llvm::StringRef fileName) : fileName(fileName) {}

  llvm::Expected<CorpusCase> parse(const llvm::json::Value &root) {
    const llvm::json::Object *object = root.getAsObject();
    if (!object)
      return error("", "expected an object");
    CorpusCase result;
    if (llvm::Error err = getString(*object, "name", "name", result.name))
      return std::move(err);
    if (llvm::Error err = getString(*object, "kernel", "kernel", result.kernel))
      return std::move(err);

    const llvm::json::Array *grid = object->getArray("grid");
    if (!grid || grid->size() != 3)
      return error("grid", "expected an array of 3 integers");
    for (size_t axis = 0; axis < 3; ++axis) {
      std::optional<int64_t> dim = (*grid)[axis].getAsInteger();
      if (!dim || *dim < 0 || *dim > std::numeric_limits<uint32_t>::max())
        return error("grid", "expected an array of 3 integers");
      result.grid[axis] = static_cast<uint32_t>(*dim);
    }

    const llvm::json::Array *params = object->getArray("params");
    if (!params)
      return error("params", "expected an array");
    for (size_t i = 0; i < params->size(); ++i) {
      std::string path = "params[" + std::to_string(i) + "]";
      llvm::Expected<CaseParam> param = parseParam((*params)[i], path);
      if (!param)
        return param.takeError();
      result.params.push_back(std::move(*param));
    }

    const llvm::json::Array *outputs = object->getArray("outputs");
    if (!outputs)
      return error("outputs", "expected an array");
    for (size_t i = 0; i < outputs->size(); ++i) {
      std::string path = "outputs[" + std::to_string(i) + "]";
      llvm::Expected<CaseOutput> output =
          parseOutput((*outputs)[i], path, result.params);
      if (!output)
        return output.takeError();
      result.outputs.push_back(std::move(*output));
    }
    return result;
  }

private:
  llvm::Error error(llvm::StringRef path, const llvm::Twine &message) {
    std::string where = fileName.str();
    if (!path.empty())
      where += ": " + path.str();
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   where + ": " + message);
  }

  llvm::Error getString(const llvm::json::Object &object, llvm::StringRef key,
                        llvm::StringRef path, std::string &out) {
    std::optional<llvm::StringRef> value = object.getString(key);
    if (!value)
      return error(path, "expected a string");
    out = value->str();
    return llvm::Error::success();
  }

  llvm::Expected<CaseParam> parseParam(const llvm::json::Value &value,
                                       const std::string &path) {
    const llvm::json::Object *object = value.getAsObject();
    if (!object)
      return error(path, "expected an object");
    CaseParam param;
    std::string kind;
    if (llvm::Error err = getString(*object, "name", path + ".name", param.name))
      return std::move(err);
    if (llvm::Error err = getString(*object, "kind", path + ".kind", kind))
      return std::move(err);
    if (llvm::Error err =
            getString(*object, "dtype", path + ".dtype", param.dtype))
      return std::move(err);
    if (kind == "ptr") {
      param.isPointer = true;
      if (llvm::Error err =
              getString(*object, "input", path + ".input", param.input))
        return std::move(err);
      const llvm::json::Array *shape = object->getArray("shape");
      if (!shape)
        return error(path + ".shape", "expected an array of integers");
      for (const llvm::json::Value &dim : *shape) {
        std::optional<int64_t> size = dim.getAsInteger();
        if (!size || *size < 0)
          return error(path + ".shape", "expected an array of integers");
        param.shape.push_back(*size);
      }
      return param;
    }
    if (kind != "scalar")
      return error(path + ".kind", "expected \"ptr\" or \"scalar\", got \"" +
                                       kind + "\"");
    const llvm::json::Value *scalar = object->get("value");
    if (!scalar)
      return error(path + ".value", "missing");
    if (std::optional<bool> flag = scalar->getAsBoolean()) {
      param.intValue = *flag;
      param.floatValue = *flag;
    } else if (std::optional<int64_t> integer = scalar->getAsInteger()) {
      param.intValue = *integer;
      param.floatValue = static_cast<double>(*integer);
    } else if (std::optional<double> number = scalar->getAsNumber()) {
      param.floatValue = *number;
      param.intValue = static_cast<int64_t>(*number);
    } else {
      return error(path + ".value", "expected a number or a boolean");
    }
    return param;
  }

  llvm::Expected<CaseOutput> parseOutput(const llvm::json::Value &value,
                                         const std::string &path,
                                         const std::vector<CaseParam> &params) {
    const llvm::json::Object *object = value.getAsObject();
    if (!object)
      return error(path, "expected an object");
    CaseOutput output;
    std::optional<int64_t> param = object->getInteger("param");
    if (!param || *param < 0 || static_cast<size_t>(*param) >= params.size() ||
        !params[*param].isPointer)
      return error(path + ".param", "expected the index of a pointer param");
    output.param = static_cast<unsigned>(*param);
    if (llvm::Error err =
            getString(*object, "expected", path + ".expected", output.expected))
      return std::move(err);
    if (std::optional<double> atol = object->getNumber("atol"))
      output.atol = *atol;
    if (std::optional<double> rtol = object->getNumber("rtol"))
      output.rtol = *rtol;
    return output;
  }

  llvm::StringRef fileName;
};
} // namespace

llvm::Expected<CorpusCase> refcpu::parseCorpusCase(llvm::StringRef json,
                                                   llvm::StringRef fileName) {
  llvm::Expected<llvm::json::Value> root = llvm::json::parse(json);
  if (!root)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   fileName + ": invalid JSON: " +
                                       llvm::toString(root.takeError()));
  return CaseParser(fileName).parse(*root);
}

llvm::Expected<CorpusCase> refcpu::readCorpusCase(llvm::StringRef caseDir) {
  llvm::SmallString<256> path(caseDir);
  llvm::sys::path::append(path, "case.json");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   path + ": cannot read: " +
                                       buffer.getError().message());
  return parseCorpusCase((*buffer)->getBuffer(), path);
}

std::optional<NpyDType> refcpu::getStorageDType(llvm::StringRef dtype) {
  return llvm::StringSwitch<std::optional<NpyDType>>(dtype)
      .Cases({"bool", "int1"}, NpyDType::Bool)
      .Case("int8", NpyDType::I8)
      .Case("uint8", NpyDType::U8)
      .Case("int16", NpyDType::I16)
      .Case("uint16", NpyDType::U16)
      .Case("int32", NpyDType::I32)
      .Case("uint32", NpyDType::U32)
      .Case("int64", NpyDType::I64)
      .Case("uint64", NpyDType::U64)
      .Case("float16", NpyDType::F16)
      .Case("bfloat16", NpyDType::U16)
      .Case("float32", NpyDType::F32)
      .Case("float64", NpyDType::F64)
      .Default(std::nullopt);
}
